package jsrt

// Promise states follow ECMAScript 27.2; reactions run as microtasks in the
// order they were registered, which Go's syscall/js callbacks rely on.
type promiseState uint8

const (
	pending promiseState = iota
	fulfilled
	rejected
)

type promise struct {
	state     promiseState
	value     Value
	reactions []reaction
	handled   bool
}

type reaction struct {
	onFulfilled, onRejected Value
	derived                 *Object // nil when registered by host code
	hostFulfilled           func(Value)
	hostRejected            func(Value)
}

// IsPromise reports whether v is a promise of this realm.
func IsPromise(v Value) bool {
	o, ok := v.(*Object)
	if !ok {
		return false
	}
	_, ok = o.Internal.(*promise)
	return ok
}

// NewPromise returns a pending promise and the functions that settle it.
// resolve follows thenables, as the executor's resolve does.
func (rt *Runtime) NewPromise() (p *Object, resolve, reject func(Value)) {
	p = &Object{proto: rt.PromiseProto, class: "Promise", Internal: &promise{}}
	done := false
	resolve = func(v Value) {
		if done {
			return
		}
		done = true
		rt.resolvePromise(p, v)
	}
	reject = func(v Value) {
		if done {
			return
		}
		done = true
		rt.settle(p, rejected, v)
	}
	return p, resolve, reject
}

// Resolved returns a promise fulfilled with v (or adopting v if thenable).
func (rt *Runtime) Resolved(v Value) *Object {
	if IsPromise(v) {
		return v.(*Object)
	}
	p, resolve, _ := rt.NewPromise()
	resolve(v)
	return p
}

// Rejected returns a promise rejected with reason.
func (rt *Runtime) Rejected(reason Value) *Object {
	p, _, reject := rt.NewPromise()
	reject(reason)
	return p
}

// Async runs work on its own goroutine and settles the returned promise
// on the loop: the shape of every binding call that does I/O.
func (rt *Runtime) Async(work func() (func() (Value, error), error)) *Object {
	p, resolve, reject := rt.NewPromise()
	go func() {
		finish, err := work()
		rt.Post(func() {
			if err != nil {
				reject(rt.ThrowValue(err))
				return
			}
			v, err := finish()
			if err != nil {
				reject(rt.ThrowValue(err))
				return
			}
			resolve(v)
		})
	}()
	return p
}

func (rt *Runtime) resolvePromise(p *Object, v Value) {
	if v == Value(p) {
		rt.settle(p, rejected, rt.NewTypeError("Chaining cycle detected for promise"))
		return
	}
	obj, ok := v.(*Object)
	if !ok {
		rt.settle(p, fulfilled, v)
		return
	}
	then, err := obj.Get("then")
	if err != nil {
		rt.settle(p, rejected, rt.ThrowValue(err))
		return
	}
	thenFn, ok := then.(*Object)
	if !ok || thenFn.call == nil {
		rt.settle(p, fulfilled, v)
		return
	}
	rt.EnqueueMicrotask(func() {
		done := false
		res := rt.NewFunction("resolve", func(_ Value, args []Value) (Value, error) {
			if !done {
				done = true
				rt.resolvePromise(p, arg(args, 0))
			}
			return Undefined, nil
		})
		rej := rt.NewFunction("reject", func(_ Value, args []Value) (Value, error) {
			if !done {
				done = true
				rt.settle(p, rejected, arg(args, 0))
			}
			return Undefined, nil
		})
		if _, err := thenFn.call(obj, []Value{res, rej}); err != nil && !done {
			done = true
			rt.settle(p, rejected, rt.ThrowValue(err))
		}
	})
}

func (rt *Runtime) settle(p *Object, state promiseState, v Value) {
	st := p.Internal.(*promise)
	if st.state != pending {
		return
	}
	st.state, st.value = state, v
	reactions := st.reactions
	st.reactions = nil
	for _, r := range reactions {
		rt.scheduleReaction(st, r)
	}
	if state == rejected && !st.handled {
		rt.EnqueueMicrotask(func() {
			if !st.handled {
				rt.uncaught(&Throw{Value: v})
			}
		})
	}
}

func (rt *Runtime) scheduleReaction(st *promise, r reaction) {
	state, value := st.state, st.value
	rt.EnqueueMicrotask(func() {
		if r.hostFulfilled != nil || r.hostRejected != nil {
			if state == fulfilled && r.hostFulfilled != nil {
				r.hostFulfilled(value)
			} else if state == rejected && r.hostRejected != nil {
				r.hostRejected(value)
			}
			return
		}
		handler := r.onFulfilled
		if state == rejected {
			handler = r.onRejected
		}
		fn, callable := handler.(*Object)
		if !callable || fn.call == nil {
			if state == fulfilled {
				rt.resolvePromise(r.derived, value)
			} else {
				rt.settle(r.derived, rejected, value)
			}
			return
		}
		res, err := fn.call(Undefined, []Value{value})
		if err != nil {
			rt.settle(r.derived, rejected, rt.ThrowValue(err))
			return
		}
		rt.resolvePromise(r.derived, res)
	})
}

// Then is promise.then(onFulfilled, onRejected) returning the derived promise.
func (rt *Runtime) Then(p *Object, onFulfilled, onRejected Value) *Object {
	derived, _, _ := rt.NewPromise()
	rt.addReaction(p, reaction{onFulfilled: onFulfilled, onRejected: onRejected, derived: derived})
	return derived
}

// Await registers Go callbacks on a promise (or a plain value, which
// counts as fulfilled); they run as microtasks on the loop.
func (rt *Runtime) Await(v Value, onFulfilled, onRejected func(Value)) {
	if !IsPromise(v) {
		v = rt.Resolved(v)
	}
	rt.addReaction(v.(*Object), reaction{hostFulfilled: onFulfilled, hostRejected: onRejected})
}

func (rt *Runtime) addReaction(p *Object, r reaction) {
	st := p.Internal.(*promise)
	st.handled = true
	if st.state == pending {
		st.reactions = append(st.reactions, r)
		return
	}
	rt.scheduleReaction(st, r)
}

func (rt *Runtime) installPromise() {
	rt.PromiseProto = rt.newProto("Promise")
	rt.PromiseCtor = rt.NewClass("Promise", rt.PromiseProto, func(args []Value) (Value, error) {
		executor, ok := arg(args, 0).(*Object)
		if !ok || executor.call == nil {
			return nil, rt.ThrowTypeError("Promise resolver is not a function")
		}
		p, resolve, reject := rt.NewPromise()
		resFn := rt.NewFunction("resolve", func(_ Value, a []Value) (Value, error) { resolve(arg(a, 0)); return Undefined, nil })
		rejFn := rt.NewFunction("reject", func(_ Value, a []Value) (Value, error) { reject(arg(a, 0)); return Undefined, nil })
		if _, err := executor.call(Undefined, []Value{resFn, rejFn}); err != nil {
			reject(rt.ThrowValue(err))
		}
		return p, nil
	})
	thisPromise := func(this Value) (*Object, error) {
		if !IsPromise(this) {
			return nil, rt.ThrowTypeError("receiver is not a Promise")
		}
		return this.(*Object), nil
	}
	rt.Method(rt.PromiseProto, "then", func(this Value, args []Value) (Value, error) {
		p, err := thisPromise(this)
		if err != nil {
			return nil, err
		}
		return rt.Then(p, arg(args, 0), arg(args, 1)), nil
	})
	rt.Method(rt.PromiseProto, "catch", func(this Value, args []Value) (Value, error) {
		p, err := thisPromise(this)
		if err != nil {
			return nil, err
		}
		return rt.Then(p, Undefined, arg(args, 0)), nil
	})
	rt.Method(rt.PromiseProto, "finally", func(this Value, args []Value) (Value, error) {
		p, err := thisPromise(this)
		if err != nil {
			return nil, err
		}
		onFinally := arg(args, 0)
		derived, resolve, reject := rt.NewPromise()
		run := func() error {
			if fn, ok := onFinally.(*Object); ok && fn.call != nil {
				_, err := fn.call(Undefined, nil)
				return err
			}
			return nil
		}
		rt.Await(p, func(v Value) {
			if err := run(); err != nil {
				reject(rt.ThrowValue(err))
				return
			}
			resolve(v)
		}, func(v Value) {
			if err := run(); err != nil {
				reject(rt.ThrowValue(err))
				return
			}
			reject(v)
		})
		return derived, nil
	})
	rt.Method(rt.PromiseCtor, "resolve", func(_ Value, args []Value) (Value, error) {
		return rt.Resolved(arg(args, 0)), nil
	})
	rt.Method(rt.PromiseCtor, "reject", func(_ Value, args []Value) (Value, error) {
		return rt.Rejected(arg(args, 0)), nil
	})
	rt.Method(rt.PromiseCtor, "all", func(_ Value, args []Value) (Value, error) {
		list, ok := arg(args, 0).(*Object)
		if !ok || list.kind != kindArray {
			return nil, rt.ThrowTypeError("Promise.all expects an array")
		}
		out, resolve, reject := rt.NewPromise()
		results := make([]Value, len(list.elems))
		left := len(results)
		if left == 0 {
			resolve(rt.NewArray())
		}
		for i, item := range list.elems {
			rt.Await(item, func(v Value) {
				results[i] = v
				left--
				if left == 0 {
					resolve(rt.NewArray(results...))
				}
			}, reject)
		}
		return out, nil
	})
	rt.Global.Define("Promise", rt.PromiseCtor)
}

func arg(args []Value, i int) Value {
	if i < len(args) && args[i] != nil {
		return args[i]
	}
	return Undefined
}

// Arg returns args[i] or undefined: how host functions read optional
// arguments.
func Arg(args []Value, i int) Value { return arg(args, i) }
