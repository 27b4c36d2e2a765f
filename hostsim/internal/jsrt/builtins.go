package jsrt

import (
	"crypto/rand"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"
)

func (rt *Runtime) newProto(class string) *Object {
	return &Object{proto: rt.ObjectProto, class: class}
}

// NewObject returns an empty plain object.
func (rt *Runtime) NewObject() *Object { return &Object{proto: rt.ObjectProto, class: "Object"} }

// NewHostObject returns a plain object that carries Go state.
func (rt *Runtime) NewHostObject(proto *Object, class string, internal any) *Object {
	if proto == nil {
		proto = rt.ObjectProto
	}
	return &Object{proto: proto, class: class, Internal: internal}
}

// NewArray returns an Array holding vals.
func (rt *Runtime) NewArray(vals ...Value) *Object {
	elems := make([]Value, len(vals))
	copy(elems, vals)
	return &Object{proto: rt.ArrayProto, class: "Array", kind: kindArray, elems: elems}
}

// NewBytes returns a Uint8Array over b (not copied).
func (rt *Runtime) NewBytes(b []byte) *Object {
	if b == nil {
		b = []byte{}
	}
	return &Object{proto: rt.BytesProto, class: "Uint8Array", kind: kindBytes, bytes: b}
}

// NewFunction wraps a Go function as a JS function.
func (rt *Runtime) NewFunction(name string, fn NativeFunc) *Object {
	return &Object{proto: rt.FunctionProto, class: name, call: fn}
}

// GlobalMethod defines a function of the global scope. Like workerd's, it
// throws "Illegal invocation" when called with any `this` but the global
// object or undefined (syumai's wasm_exec hands Go a Proxy as its global, so
// js.Global().Call("fetch") fails in workerd and must fail here too).
func (rt *Runtime) GlobalMethod(name string, fn NativeFunc) {
	rt.Global.Define(name, rt.NewFunction(name, func(this Value, args []Value) (Value, error) {
		if !IsUndefined(this) && this != Value(rt.Global) {
			return nil, rt.ThrowTypeError("Illegal invocation: function called with incorrect `this` reference. See https://developers.cloudflare.com/workers/observability/errors/#illegal-invocation-errors for details.")
		}
		return fn(this, args)
	}))
}

// Method defines a function property on obj.
func (rt *Runtime) Method(obj *Object, name string, fn NativeFunc) {
	obj.Define(name, rt.NewFunction(name, fn))
}

// NewClass makes a constructor whose instances inherit from proto.
// Calling it without new throws, as for JS classes.
func (rt *Runtime) NewClass(name string, proto *Object, ctor func(args []Value) (Value, error)) *Object {
	c := &Object{proto: rt.FunctionProto, class: name}
	c.call = func(Value, []Value) (Value, error) {
		return nil, rt.ThrowTypeError("Class constructor %s cannot be invoked without 'new'", name)
	}
	c.construct = func(_ Value, args []Value) (Value, error) { return ctor(args) }
	c.Define("prototype", proto)
	proto.Define("constructor", c)
	return c
}

// NewError returns an Error object with message.
func (rt *Runtime) NewError(msg string) *Object { return rt.newErrorOf(rt.ErrorCtor, msg) }

// NewTypeError returns a TypeError object with message.
func (rt *Runtime) NewTypeError(msg string) *Object { return rt.newErrorOf(rt.TypeErrorCtor, msg) }

// ThrowTypeError returns a throwable TypeError.
func (rt *Runtime) ThrowTypeError(format string, a ...any) error {
	return &Throw{Value: rt.NewTypeError(fmt.Sprintf(format, a...))}
}

// ThrowError returns a throwable Error.
func (rt *Runtime) ThrowError(format string, a ...any) error {
	return &Throw{Value: rt.NewError(fmt.Sprintf(format, a...))}
}

func (rt *Runtime) newErrorOf(ctor *Object, msg string) *Object {
	proto := ctor.MustGet("prototype").(*Object)
	e := &Object{proto: proto, class: "Error"}
	e.Define("message", msg)
	e.Define("stack", ToString(proto.MustGet("name"))+": "+msg)
	return e
}

func (rt *Runtime) installBuiltins() {
	rt.ObjectProto = &Object{class: "Object"}
	rt.FunctionProto = &Object{proto: rt.ObjectProto, class: "Function"}
	rt.Global = rt.NewObject()
	rt.Global.class = "global"
	rt.Global.Define("globalThis", rt.Global)

	rt.ObjectCtor = rt.NewClass("Object", rt.ObjectProto, func([]Value) (Value, error) { return rt.NewObject(), nil })
	rt.ObjectCtor.call = func(_ Value, args []Value) (Value, error) {
		if o, ok := arg(args, 0).(*Object); ok {
			return o, nil
		}
		return rt.NewObject(), nil
	}
	rt.Method(rt.ObjectCtor, "keys", func(_ Value, args []Value) (Value, error) {
		o, ok := arg(args, 0).(*Object)
		if !ok {
			return rt.NewArray(), nil
		}
		keys := o.Keys()
		vals := make([]Value, len(keys))
		for i, k := range keys {
			vals[i] = k
		}
		return rt.NewArray(vals...), nil
	})
	rt.Method(rt.ObjectCtor, "entries", func(_ Value, args []Value) (Value, error) {
		o, ok := arg(args, 0).(*Object)
		if !ok {
			return rt.NewArray(), nil
		}
		var out []Value
		for _, k := range o.Keys() {
			v, err := o.Get(k)
			if err != nil {
				return nil, err
			}
			out = append(out, rt.NewArray(k, v))
		}
		return rt.NewArray(out...), nil
	})
	rt.Method(rt.ObjectCtor, "assign", func(_ Value, args []Value) (Value, error) {
		target, ok := arg(args, 0).(*Object)
		if !ok {
			return nil, rt.ThrowTypeError("Cannot convert undefined or null to object")
		}
		for _, src := range args[1:] {
			if s, ok := src.(*Object); ok {
				for _, k := range s.Keys() {
					if err := target.Set(k, s.MustGet(k)); err != nil {
						return nil, err
					}
				}
			}
		}
		return target, nil
	})
	rt.Method(rt.ObjectProto, "hasOwnProperty", func(this Value, args []Value) (Value, error) {
		o, ok := this.(*Object)
		if !ok {
			return false, nil
		}
		_, has := o.GetOwn(ToString(arg(args, 0)))
		return has, nil
	})
	rt.Global.Define("Object", rt.ObjectCtor)
	rt.Global.Define("Function", rt.NewClass("Function", rt.FunctionProto, func([]Value) (Value, error) {
		return nil, rt.ThrowError("Code generation from strings disallowed for this context")
	}))

	rt.installErrors()
	rt.installArray()
	rt.installBytes()
	rt.installPromise()
	rt.installDate()
	rt.installTimers()
	rt.installJSON()
	rt.installHostGlobals()
}

func (rt *Runtime) installErrors() {
	rt.ErrorProto = rt.newProto("Error")
	rt.ErrorProto.Define("name", "Error")
	rt.ErrorProto.Define("message", "")
	rt.ErrorCtor = rt.NewClass("Error", rt.ErrorProto, func(args []Value) (Value, error) {
		return rt.NewError(messageArg(args)), nil
	})
	rt.ErrorCtor.call = func(_ Value, args []Value) (Value, error) { return rt.NewError(messageArg(args)), nil }
	rt.Global.Define("Error", rt.ErrorCtor)
	for _, name := range []string{"TypeError", "RangeError", "SyntaxError"} {
		proto := &Object{proto: rt.ErrorProto, class: "Error"}
		proto.Define("name", name)
		var ctor *Object
		ctor = rt.NewClass(name, proto, func(args []Value) (Value, error) {
			return rt.newErrorOf(ctor, messageArg(args)), nil
		})
		rt.Global.Define(name, ctor)
		if name == "TypeError" {
			rt.TypeErrorCtor = ctor
		}
	}
}

func messageArg(args []Value) string {
	if IsUndefined(arg(args, 0)) {
		return ""
	}
	return ToString(args[0])
}

func (rt *Runtime) installArray() {
	rt.ArrayProto = &Object{proto: rt.ObjectProto, class: "Array", kind: kindArray}
	rt.ArrayCtor = rt.NewClass("Array", rt.ArrayProto, func(args []Value) (Value, error) {
		if n, ok := arg(args, 0).(float64); ok && len(args) == 1 {
			if n < 0 || n != math.Trunc(n) || n > 1<<32-1 {
				return nil, &Throw{Value: rt.newErrorOf(rt.Global.MustGet("RangeError").(*Object), "Invalid array length")}
			}
			a := rt.NewArray()
			a.elems = make([]Value, int(n))
			for i := range a.elems {
				a.elems[i] = Undefined
			}
			return a, nil
		}
		return rt.NewArray(args...), nil
	})
	rt.Method(rt.ArrayCtor, "isArray", func(_ Value, args []Value) (Value, error) {
		o, ok := arg(args, 0).(*Object)
		return ok && o.kind == kindArray, nil
	})
	rt.Method(rt.ArrayCtor, "from", func(_ Value, args []Value) (Value, error) {
		vals, err := rt.Iterate(arg(args, 0))
		if err != nil {
			return nil, err
		}
		return rt.NewArray(vals...), nil
	})
	rt.Method(rt.ArrayProto, "push", func(this Value, args []Value) (Value, error) {
		o, ok := this.(*Object)
		if !ok || o.kind != kindArray {
			return nil, rt.ThrowTypeError("push on a non-array")
		}
		o.elems = append(o.elems, args...)
		return float64(len(o.elems)), nil
	})
	rt.Method(rt.ArrayProto, "join", func(this Value, args []Value) (Value, error) {
		o, ok := this.(*Object)
		if !ok {
			return "", nil
		}
		sep := ","
		if s, ok := arg(args, 0).(string); ok {
			sep = s
		}
		// A Builder, not +=: a Worker joins embedding rows of a thousand
		// numbers, which repeated concatenation copies quadratically.
		var out strings.Builder
		for i, e := range o.elems {
			if i > 0 {
				out.WriteString(sep)
			}
			if !IsNullish(e) {
				out.WriteString(ToString(e))
			}
		}
		return out.String(), nil
	})
	rt.Global.Define("Array", rt.ArrayCtor)
}

// Iterable is implemented by the Internal state of host objects that
// for-of and Array.from can walk (Headers, Map).
type Iterable interface {
	Iterate(rt *Runtime) ([]Value, error)
}

// Iterate lists what for-of over v would produce.
func (rt *Runtime) Iterate(v Value) ([]Value, error) {
	switch x := v.(type) {
	case string:
		var out []Value
		for _, r := range x {
			out = append(out, string(r))
		}
		return out, nil
	case *Object:
		switch x.kind {
		case kindArray:
			return append([]Value(nil), x.elems...), nil
		case kindBytes:
			out := make([]Value, len(x.bytes))
			for i, b := range x.bytes {
				out[i] = float64(b)
			}
			return out, nil
		}
		if it, ok := x.Internal.(Iterable); ok {
			return it.Iterate(rt)
		}
		// Array-likes ({length: n}) are accepted by Array.from.
		if n, ok := x.MustGet("length").(float64); ok {
			out := make([]Value, int(n))
			for i := range out {
				out[i] = x.MustGet(fmt.Sprint(i))
			}
			return out, nil
		}
	}
	return nil, rt.ThrowTypeError("%s is not iterable", ToString(v))
}

func (rt *Runtime) installBytes() {
	rt.BufferProto = rt.newProto("ArrayBuffer")
	rt.ArrayBufferCtor = rt.NewClass("ArrayBuffer", rt.BufferProto, func(args []Value) (Value, error) {
		n := int(ToNumber(arg(args, 0)))
		if n < 0 {
			n = 0
		}
		return rt.NewArrayBuffer(make([]byte, n)), nil
	})
	rt.Global.Define("ArrayBuffer", rt.ArrayBufferCtor)

	rt.BytesProto = rt.newProto("Uint8Array")
	makeBytes := func(class string, proto *Object) func([]Value) (Value, error) {
		return func(args []Value) (Value, error) {
			var b []byte
			switch x := arg(args, 0).(type) {
			case float64:
				if x < 0 || x != math.Trunc(x) {
					return nil, rt.ThrowTypeError("Invalid typed array length: %v", x)
				}
				b = make([]byte, int(x))
			case *Object:
				switch {
				case x.kind == kindBuffer:
					off, end := 0, len(x.bytes)
					if o, ok := arg(args, 1).(float64); ok {
						off = int(o)
					}
					if l, ok := arg(args, 2).(float64); ok {
						end = off + int(l)
					}
					if off < 0 || off > end || end > len(x.bytes) {
						return nil, rt.ThrowTypeError("Start offset or length out of bounds")
					}
					b = x.bytes[off:end:end]
				default:
					vals, err := rt.Iterate(x)
					if err != nil {
						return nil, err
					}
					b = make([]byte, len(vals))
					for i, v := range vals {
						b[i] = byte(int64(ToNumber(v)))
					}
				}
			default:
				b = []byte{}
			}
			return &Object{proto: proto, class: class, kind: kindBytes, bytes: b}, nil
		}
	}
	rt.Uint8ArrayCtor = rt.NewClass("Uint8Array", rt.BytesProto, makeBytes("Uint8Array", rt.BytesProto))
	rt.Method(rt.BytesProto, "subarray", func(this Value, args []Value) (Value, error) {
		o, ok := this.(*Object)
		if !ok || o.kind != kindBytes {
			return nil, rt.ThrowTypeError("subarray on a non-typed-array")
		}
		start, end := sliceBounds(len(o.bytes), args)
		return &Object{proto: o.proto, class: o.class, kind: kindBytes, bytes: o.bytes[start:end:end]}, nil
	})
	rt.Method(rt.BytesProto, "slice", func(this Value, args []Value) (Value, error) {
		o, ok := this.(*Object)
		if !ok || o.kind != kindBytes {
			return nil, rt.ThrowTypeError("slice on a non-typed-array")
		}
		start, end := sliceBounds(len(o.bytes), args)
		return &Object{proto: o.proto, class: o.class, kind: kindBytes, bytes: append([]byte(nil), o.bytes[start:end]...)}, nil
	})
	rt.Method(rt.BytesProto, "set", func(this Value, args []Value) (Value, error) {
		o, ok := this.(*Object)
		src, ok2 := arg(args, 0).(*Object)
		if !ok || !ok2 || o.kind != kindBytes {
			return nil, rt.ThrowTypeError("set expects a typed array")
		}
		off := int(ToNumber(arg(args, 1)))
		vals, err := rt.Iterate(src)
		if err != nil {
			return nil, err
		}
		if off < 0 || off+len(vals) > len(o.bytes) {
			return nil, &Throw{Value: rt.newErrorOf(rt.Global.MustGet("RangeError").(*Object), "offset is out of bounds")}
		}
		for i, v := range vals {
			o.bytes[off+i] = byte(int64(ToNumber(v)))
		}
		return Undefined, nil
	})
	rt.BytesProto.Define("buffer", &Accessor{Get: func(this Value) (Value, error) {
		if o, ok := this.(*Object); ok {
			return rt.NewArrayBuffer(o.bytes), nil
		}
		return Undefined, nil
	}})
	rt.Global.Define("Uint8Array", rt.Uint8ArrayCtor)

	clampedProto := &Object{proto: rt.BytesProto, class: "Uint8ClampedArray"}
	rt.Global.Define("Uint8ClampedArray", rt.NewClass("Uint8ClampedArray", clampedProto, makeBytes("Uint8ClampedArray", clampedProto)))
}

// NewArrayBuffer returns an ArrayBuffer over b (not copied).
func (rt *Runtime) NewArrayBuffer(b []byte) *Object {
	return &Object{proto: rt.BufferProto, class: "ArrayBuffer", kind: kindBuffer, bytes: b}
}

func sliceBounds(n int, args []Value) (int, int) {
	clamp := func(v Value, def int) int {
		if IsUndefined(v) {
			return def
		}
		i := int(ToNumber(v))
		if i < 0 {
			i += n
		}
		return max(0, min(i, n))
	}
	start := clamp(arg(args, 0), 0)
	end := clamp(arg(args, 1), n)
	if end < start {
		end = start
	}
	return start, end
}

func (rt *Runtime) installDate() {
	proto := rt.newProto("Date")
	ctor := rt.NewClass("Date", proto, func(args []Value) (Value, error) {
		ms := float64(rt.clock().UnixMilli())
		if v, ok := arg(args, 0).(float64); ok {
			ms = v
		}
		return rt.NewHostObject(proto, "Date", ms), nil
	})
	msOf := func(this Value) float64 {
		if o, ok := this.(*Object); ok {
			if ms, ok := o.Internal.(float64); ok {
				return ms
			}
		}
		return math.NaN()
	}
	rt.Method(proto, "getTime", func(this Value, _ []Value) (Value, error) { return msOf(this), nil })
	rt.Method(proto, "valueOf", func(this Value, _ []Value) (Value, error) { return msOf(this), nil })
	rt.Method(proto, "getTimezoneOffset", func(Value, []Value) (Value, error) { return 0.0, nil })
	rt.Method(proto, "toISOString", func(this Value, _ []Value) (Value, error) {
		return time.UnixMilli(int64(msOf(this))).UTC().Format("2006-01-02T15:04:05.000Z"), nil
	})
	rt.Method(proto, "toString", func(this Value, _ []Value) (Value, error) {
		return time.UnixMilli(int64(msOf(this))).UTC().Format("Mon Jan 02 2006 15:04:05 GMT+0000 (Coordinated Universal Time)"), nil
	})
	rt.Method(ctor, "now", func(Value, []Value) (Value, error) { return float64(rt.clock().UnixMilli()), nil })
	rt.Global.Define("Date", ctor)
}

func (rt *Runtime) installTimers() {
	rt.GlobalMethod("setTimeout", func(_ Value, args []Value) (Value, error) {
		fn, ok := arg(args, 0).(*Object)
		if !ok || fn.call == nil {
			return nil, rt.ThrowTypeError("setTimeout expects a function")
		}
		ms := ToNumber(arg(args, 1))
		if math.IsNaN(ms) || ms < 0 {
			ms = 0
		}
		extra := append([]Value(nil), args[min(2, len(args)):]...)
		id := rt.SetTimeout(time.Duration(ms*float64(time.Millisecond)), func() {
			if _, err := fn.call(Undefined, extra); err != nil {
				rt.uncaught(err)
			}
		})
		return float64(id), nil
	})
	rt.GlobalMethod("clearTimeout", func(_ Value, args []Value) (Value, error) {
		rt.ClearTimeout(int(ToNumber(arg(args, 0))))
		return Undefined, nil
	})
	rt.GlobalMethod("queueMicrotask", func(_ Value, args []Value) (Value, error) {
		fn, ok := arg(args, 0).(*Object)
		if !ok || fn.call == nil {
			return nil, rt.ThrowTypeError("queueMicrotask expects a function")
		}
		rt.EnqueueMicrotask(func() {
			if _, err := fn.call(Undefined, nil); err != nil {
				rt.uncaught(err)
			}
		})
		return Undefined, nil
	})
}

// Console is where console.log and fs writes to fd 1 and 2 go.
type Console struct{ Stdout, Stderr io.Writer }

func (rt *Runtime) installHostGlobals() {
	cryptoObj := rt.NewObject()
	rt.Method(cryptoObj, "getRandomValues", func(_ Value, args []Value) (Value, error) {
		o, ok := arg(args, 0).(*Object)
		if !ok || o.kind != kindBytes {
			return nil, rt.ThrowTypeError("getRandomValues expects an integer typed array")
		}
		if len(o.bytes) > 65536 {
			return nil, rt.ThrowError("The ArrayBufferView's byte length (%d) exceeds the number of bytes of entropy available via this API (65536)", len(o.bytes))
		}
		_, _ = rand.Read(o.bytes)
		return o, nil
	})
	rt.Method(cryptoObj, "randomUUID", func(Value, []Value) (Value, error) { return randomUUID(), nil })
	rt.Global.Define("crypto", cryptoObj)
	rt.SetConsole(Console{Stdout: os.Stdout, Stderr: os.Stderr})
}

// SetConsole routes console.* and the fs writes of Go's runtime.
func (rt *Runtime) SetConsole(c Console) {
	console := rt.NewObject()
	logTo := func(w io.Writer) NativeFunc {
		return func(_ Value, args []Value) (Value, error) {
			line := ""
			for i, a := range args {
				if i > 0 {
					line += " "
				}
				line += ToString(a)
			}
			fmt.Fprintln(w, line)
			return Undefined, nil
		}
	}
	rt.Method(console, "log", logTo(c.Stdout))
	rt.Method(console, "info", logTo(c.Stdout))
	rt.Method(console, "debug", logTo(c.Stdout))
	rt.Method(console, "warn", logTo(c.Stderr))
	rt.Method(console, "error", logTo(c.Stderr))
	rt.Global.Define("console", console)
	rt.installFS(c)
}

// installFS provides the `fs` and `process` objects Go's syscall package
// reads at init; like wasm_exec.js, only writes to stdout/stderr work.
func (rt *Runtime) installFS(c Console) {
	enosys := func() Value {
		e := rt.NewError("not implemented")
		e.Define("code", "ENOSYS")
		return e
	}
	fs := rt.NewObject()
	constants := rt.NewObject()
	for _, k := range []string{"O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND", "O_EXCL", "O_DIRECTORY"} {
		constants.Define(k, -1.0)
	}
	fs.Define("constants", constants)
	writeSync := func(fd Value, buf Value) (int, error) {
		o, ok := buf.(*Object)
		if !ok || o.kind != kindBytes {
			return 0, rt.ThrowTypeError("write expects a Uint8Array")
		}
		w := c.Stdout
		if ToNumber(fd) == 2 {
			w = c.Stderr
		}
		return w.Write(o.bytes)
	}
	rt.Method(fs, "writeSync", func(_ Value, args []Value) (Value, error) {
		n, err := writeSync(arg(args, 0), arg(args, 1))
		return float64(n), err
	})
	rt.Method(fs, "write", func(_ Value, args []Value) (Value, error) {
		cb := arg(args, 5)
		n, err := writeSync(arg(args, 0), arg(args, 1))
		if err != nil {
			return rt.Call(cb, Undefined, rt.ThrowValue(err))
		}
		return rt.Call(cb, Undefined, Null, float64(n))
	})
	for _, name := range []string{"chmod", "chown", "close", "fchmod", "fchown", "fstat", "fsync", "ftruncate", "lchown", "link", "lstat", "mkdir", "open", "read", "readdir", "readlink", "rename", "rmdir", "stat", "symlink", "truncate", "unlink", "utimes"} {
		rt.Method(fs, name, func(_ Value, args []Value) (Value, error) {
			if len(args) == 0 {
				return Undefined, nil
			}
			return rt.Call(args[len(args)-1], Undefined, enosys())
		})
	}
	rt.Global.Define("fs", fs)

	process := rt.NewObject()
	for _, k := range []string{"pid", "ppid"} {
		process.Define(k, -1.0)
	}
	for _, name := range []string{"getuid", "getgid", "geteuid", "getegid", "umask"} {
		rt.Method(process, name, func(Value, []Value) (Value, error) { return -1.0, nil })
	}
	rt.Method(process, "getgroups", func(Value, []Value) (Value, error) { return nil, &Throw{Value: enosys()} })
	rt.Method(process, "cwd", func(Value, []Value) (Value, error) { return nil, &Throw{Value: enosys()} })
	rt.Method(process, "chdir", func(Value, []Value) (Value, error) { return nil, &Throw{Value: enosys()} })
	rt.Global.Define("process", process)
}

// randomUUID is a version 4 UUID, as crypto.randomUUID returns.
func randomUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
