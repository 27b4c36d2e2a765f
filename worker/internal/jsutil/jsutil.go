//go:build js && wasm

// Package jsutil holds every JS global the worker touches and the few
// conversions between JS and Go values. The var block below is the exact
// list hostsim must provide beyond Go's own runtime needs.
package jsutil

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"syscall/js"
	"time"
)

// JS globals the worker uses. Nothing else in worker/ calls js.Global().
var (
	Global     = js.Global()
	Object     = js.Global().Get("Object")
	Array      = js.Global().Get("Array")
	Uint8Array = js.Global().Get("Uint8Array")
	ErrorClass = js.Global().Get("Error")
	// RuntimeContext is syumai's per-isolate `context` global: {env, binding}.
	RuntimeContext = js.Global().Get("context")
)

// Env returns the Worker's env object (bindings, vars and secrets).
func Env() js.Value { return RuntimeContext.Get("env") }

// Binding is the object the JS entry calls into (see worker/entry/PROTOCOL.md).
func Binding() js.Value { return RuntimeContext.Get("binding") }

// ErrJS wraps an exception thrown or a rejection from JS.
type ErrJS struct {
	Name, Message string
}

func (e *ErrJS) Error() string { return e.Name + ": " + e.Message }

// errorFrom turns a thrown JS value into an error.
func errorFrom(v js.Value) error {
	if v.Type() == js.TypeObject {
		name := v.Get("name")
		msg := v.Get("message")
		if msg.Type() == js.TypeString {
			n := "Error"
			if name.Type() == js.TypeString {
				n = name.String()
			}
			return &ErrJS{Name: n, Message: msg.String()}
		}
	}
	return &ErrJS{Name: "Error", Message: v.String()}
}

// Await waits for a promise (or plain value) to settle, releasing both of
// its callbacks whichever way it ends: on a long-lived instance a leaked
// callback per call would grow without bound.
func Await(ctx context.Context, p js.Value) (js.Value, error) {
	if p.Type() != js.TypeObject || p.Get("then").Type() != js.TypeFunction {
		return p, nil
	}
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	var onOK, onErr js.Func
	onOK = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{v: arg(args)}
		return nil
	})
	onErr = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{err: errorFrom(arg(args))}
		return nil
	})
	p.Call("then", onOK, onErr)
	select {
	case r := <-ch:
		onOK.Release()
		onErr.Release()
		return r.v, r.err
	case <-ctx.Done():
		// The callbacks stay registered until the promise settles; release
		// them then so nothing leaks.
		go func() {
			<-ch
			onOK.Release()
			onErr.Release()
		}()
		return js.Undefined(), ctx.Err()
	}
}

func arg(args []js.Value) js.Value {
	if len(args) == 0 {
		return js.Undefined()
	}
	return args[0]
}

// Call invokes v[method](args...) and turns a thrown exception into an error.
func Call(v js.Value, method string, args ...any) (js.Value, error) {
	return catch(method, func() js.Value { return v.Call(method, args...) })
}

// Invoke calls fn with no `this` and turns a thrown exception into an error.
func Invoke(fn js.Value, args ...any) (js.Value, error) {
	return catch("invoke", func() js.Value { return fn.Invoke(args...) })
}

// catch runs a call that syscall/js reports failures of by panicking.
func catch(what string, call func() js.Value) (res js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			if jsErr, ok := r.(js.Error); ok {
				err = errorFrom(jsErr.Value)
				return
			}
			err = fmt.Errorf("jsutil: %s: %v", what, r)
		}
	}()
	return call(), nil
}

// CallAwait calls a method returning a promise and waits for it.
func CallAwait(ctx context.Context, v js.Value, method string, args ...any) (js.Value, error) {
	p, err := Call(v, method, args...)
	if err != nil {
		return js.Undefined(), err
	}
	return Await(ctx, p)
}

// Bytes copies a Uint8Array (or ArrayBuffer) into Go.
func Bytes(v js.Value) []byte {
	if v.IsUndefined() || v.IsNull() {
		return nil
	}
	if !v.InstanceOf(Uint8Array) {
		v = Uint8Array.New(v)
	}
	b := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(b, v)
	return b
}

// NewBytes copies b into a new Uint8Array.
func NewBytes(b []byte) js.Value {
	a := Uint8Array.New(len(b))
	js.CopyBytesToJS(a, b)
	return a
}

// NewObject returns an empty JS object.
func NewObject() js.Value { return Object.New() }

// Pairs converts [[k, v], ...] into Go string pairs.
func Pairs(v js.Value) [][2]string {
	if v.IsUndefined() || v.IsNull() {
		return nil
	}
	n := v.Length()
	out := make([][2]string, 0, n)
	for i := 0; i < n; i++ {
		p := v.Index(i)
		out = append(out, [2]string{p.Index(0).String(), p.Index(1).String()})
	}
	return out
}

// NewPairs builds [[k, v], ...].
func NewPairs(pairs [][2]string) js.Value {
	a := Array.New(len(pairs))
	for i, p := range pairs {
		a.SetIndex(i, Array.New(p[0], p[1]))
	}
	return a
}

// String returns v as a Go string, or "" when v is not a string.
func String(v js.Value) string {
	if v.Type() != js.TypeString {
		return ""
	}
	return v.String()
}

// ErrUnbound reports a binding missing from the Worker's env.
var ErrUnbound = errors.New("jsutil: binding is not configured")

// JSON is the global JSON object, used to move structured values across.
var JSON = js.Global().Get("JSON")

// ToJSON decodes a JS data value into out through JSON.stringify.
func ToJSON(v js.Value, out any) error {
	s, err := Call(JSON, "stringify", v)
	if err != nil {
		return err
	}
	return json.Unmarshal([]byte(s.String()), out)
}

// FromJSON encodes a Go value as a JS value through JSON.parse.
func FromJSON(v any) (js.Value, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return js.Undefined(), err
	}
	return Call(JSON, "parse", string(b))
}

// Promise and setTimeout, for sleeping inside the current request's own
// context: Go timers would arm one shared JS timer in whichever request ran
// last (PROTOCOL.md, rule 1).
var (
	Promise      = js.Global().Get("Promise")
	setTimeout   = js.Global().Get("setTimeout")
	clearTimeout = js.Global().Get("clearTimeout")
)

// Sleep waits d using a JS timer armed by the calling request. When ctx
// ends first the timer is cleared and the promise settled, so nothing
// stays armed or waiting after a cancelled sleep (a webhook attempt's
// 10 s timeout is such a sleep, cancelled by every quick answer).
func Sleep(ctx context.Context, d time.Duration) error {
	return After(d)(ctx)
}

// After arms a JS timer of d now, in whichever request is running this
// goroutine, and returns a wait for it. Arm it from the request that must
// stay alive (its handler), then wait inside that request's waitUntil.
func After(d time.Duration) func(ctx context.Context) error {
	var resolve, timer js.Value
	var executor js.Func
	executor = js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve = args[0]
		timer = setTimeout.Invoke(args[0], d.Milliseconds())
		return nil
	})
	p := Promise.New(executor)
	executor.Release()
	return func(ctx context.Context) error {
		_, err := Await(ctx, p)
		if err != nil {
			clearTimeout.Invoke(timer)
			resolve.Invoke()
		}
		return err
	}
}
