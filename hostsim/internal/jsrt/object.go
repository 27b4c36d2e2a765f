package jsrt

import (
	"strconv"
	"strings"
	"unicode/utf16"
)

type kind uint8

const (
	kindPlain kind = iota
	kindArray
	kindBytes  // Uint8Array and Uint8ClampedArray: a view over bytes
	kindBuffer // ArrayBuffer
)

// NativeFunc implements a JS function in Go. Returning a *Throw (or any
// error) makes the call throw.
type NativeFunc func(this Value, args []Value) (Value, error)

// Accessor is a property with a getter and an optional setter, the way host
// objects such as Response expose status or headers.
type Accessor struct {
	Get func(this Value) (Value, error)
	Set func(this Value, v Value) error
}

// Object is every non-primitive JS value: plain objects, arrays, byte
// arrays, functions and host objects (whose Go state sits in Internal).
type Object struct {
	proto     *Object
	props     map[string]Value
	keys      []string
	kind      kind
	elems     []Value
	bytes     []byte
	call      NativeFunc
	construct NativeFunc
	class     string

	// Internal is the Go state of a host object (a promise, a Headers list, a
	// binding's store); JS cannot see it.
	Internal any
}

// Proto returns the object's prototype (nil at the root).
func (o *Object) Proto() *Object { return o.proto }

// Class names the object's kind as Object.prototype.toString would.
func (o *Object) Class() string { return o.class }

// Callable reports whether o is a function.
func (o *Object) Callable() bool { return o.call != nil }

// Bytes returns the bytes behind a Uint8Array or ArrayBuffer; nil otherwise.
func (o *Object) Bytes() []byte { return o.bytes }

// IsBytes reports whether o is a Uint8Array (or Uint8ClampedArray).
func (o *Object) IsBytes() bool { return o.kind == kindBytes }

// IsArray reports whether o is an Array.
func (o *Object) IsArray() bool { return o.kind == kindArray }

// Elems returns an array's elements (shared, not copied).
func (o *Object) Elems() []Value { return o.elems }

// Keys lists own enumerable string keys in insertion order, as
// Object.keys does (array indices first for arrays).
func (o *Object) Keys() []string {
	var out []string
	if o.kind == kindArray {
		for i := range o.elems {
			out = append(out, strconv.Itoa(i))
		}
	}
	for _, k := range o.keys {
		if _, isAcc := o.props[k].(*Accessor); !isAcc {
			out = append(out, k)
		}
	}
	return out
}

// Has reports whether key is an own property or inherited one.
func (o *Object) Has(key string) bool {
	for p := o; p != nil; p = p.proto {
		if _, ok := p.props[key]; ok {
			return true
		}
		if _, ok := p.exoticGet(key); ok {
			return true
		}
	}
	return false
}

// GetOwn returns an own data property without running accessors.
func (o *Object) GetOwn(key string) (Value, bool) {
	if v, ok := o.exoticGet(key); ok {
		return v, true
	}
	v, ok := o.props[key]
	return v, ok
}

func (o *Object) exoticGet(key string) (Value, bool) {
	switch o.kind {
	case kindArray:
		if key == "length" {
			return float64(len(o.elems)), true
		}
		if i, ok := arrayIndex(key); ok {
			if i < len(o.elems) {
				return o.elems[i], true
			}
			return Undefined, false
		}
	case kindBytes:
		if key == "length" || key == "byteLength" {
			return float64(len(o.bytes)), true
		}
		if i, ok := arrayIndex(key); ok {
			if i < len(o.bytes) {
				return float64(o.bytes[i]), true
			}
			return Undefined, false
		}
	case kindBuffer:
		if key == "byteLength" {
			return float64(len(o.bytes)), true
		}
	}
	return nil, false
}

// Get reads a property through the prototype chain, running getters with o
// as the receiver.
func (o *Object) Get(key string) (Value, error) {
	return o.getWithReceiver(key, o)
}

func (o *Object) getWithReceiver(key string, receiver Value) (Value, error) {
	for p := o; p != nil; p = p.proto {
		if v, ok := p.exoticGet(key); ok {
			return v, nil
		}
		if v, ok := p.props[key]; ok {
			if acc, isAcc := v.(*Accessor); isAcc {
				if acc.Get == nil {
					return Undefined, nil
				}
				return acc.Get(receiver)
			}
			return v, nil
		}
	}
	return Undefined, nil
}

// MustGet is Get for host code that knows no getter can throw.
func (o *Object) MustGet(key string) Value {
	v, err := o.Get(key)
	if err != nil {
		return Undefined
	}
	return v
}

// Set writes a property, running a setter found on the prototype chain.
func (o *Object) Set(key string, v Value) error {
	switch o.kind {
	case kindArray:
		if key == "length" {
			n := int(ToNumber(v))
			if n < 0 {
				n = 0
			}
			for len(o.elems) < n {
				o.elems = append(o.elems, Undefined)
			}
			o.elems = o.elems[:n]
			return nil
		}
		if i, ok := arrayIndex(key); ok {
			for len(o.elems) <= i {
				o.elems = append(o.elems, Undefined)
			}
			o.elems[i] = v
			return nil
		}
	case kindBytes:
		if i, ok := arrayIndex(key); ok {
			if i < len(o.bytes) {
				o.bytes[i] = byte(int64(ToNumber(v)))
			}
			return nil
		}
	}
	for p := o; p != nil; p = p.proto {
		if acc, isAcc := p.props[key].(*Accessor); isAcc {
			if acc.Set == nil {
				return nil
			}
			return acc.Set(o, v)
		}
	}
	o.Define(key, v)
	return nil
}

// Define creates or replaces an own property (data or *Accessor) without
// consulting setters: how host code builds objects.
func (o *Object) Define(key string, v Value) {
	if o.props == nil {
		o.props = make(map[string]Value, 4)
	}
	if _, exists := o.props[key]; !exists {
		o.keys = append(o.keys, key)
	}
	o.props[key] = v
}

// Delete removes an own property.
func (o *Object) Delete(key string) {
	if _, ok := o.props[key]; !ok {
		return
	}
	delete(o.props, key)
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// InstanceOf is the JS instanceof operator against a constructor.
func (o *Object) InstanceOf(ctor *Object) bool {
	protoVal, _ := ctor.props["prototype"].(*Object)
	if protoVal == nil {
		return false
	}
	for p := o.proto; p != nil; p = p.proto {
		if p == protoVal {
			return true
		}
	}
	return false
}

// String is JS String(o) for the objects hostsim creates.
func (o *Object) String() string {
	switch {
	case o.kind == kindArray:
		parts := make([]string, len(o.elems))
		for i, e := range o.elems {
			if !IsNullish(e) {
				parts[i] = ToString(e)
			}
		}
		return strings.Join(parts, ",")
	case o.kind == kindBytes:
		parts := make([]string, len(o.bytes))
		for i, b := range o.bytes {
			parts[i] = strconv.Itoa(int(b))
		}
		return strings.Join(parts, ",")
	case o.call != nil:
		return "function " + o.class + "() { [native code] }"
	}
	if o.isError() {
		name := ToString(o.MustGet("name"))
		msg := ToString(o.MustGet("message"))
		if msg == "" {
			return name
		}
		return name + ": " + msg
	}
	if ts, ok := o.props["toString"].(*Object); ok && ts.call != nil {
		if s, err := ts.call(o, nil); err == nil {
			return ToString(s)
		}
	}
	return "[object " + o.class + "]"
}

func (o *Object) isError() bool {
	for p := o; p != nil; p = p.proto {
		if p.class == "Error" {
			return true
		}
	}
	return false
}

func arrayIndex(key string) (int, bool) {
	if key == "" || len(key) > 10 || (len(key) > 1 && key[0] == '0') {
		return 0, false
	}
	n := 0
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// StringLength is the JS length of a string: UTF-16 code units.
func StringLength(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// Throw is a JS exception travelling through Go code.
type Throw struct{ Value Value }

func (t *Throw) Error() string { return "uncaught " + ToString(t.Value) }
