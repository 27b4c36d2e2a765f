package jsrt

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Runtime is one JS realm with its event loop. All methods except Post,
// Close and Done must be called on the loop goroutine (inside a task).
type Runtime struct {
	Global *Object

	ObjectProto, FunctionProto, ArrayProto, ErrorProto *Object
	BytesProto, BufferProto, PromiseProto              *Object
	ObjectCtor, ArrayCtor, ErrorCtor, TypeErrorCtor    *Object
	PromiseCtor, Uint8ArrayCtor, ArrayBufferCtor       *Object

	microtasks []func()

	mu      sync.Mutex
	tasks   []func()
	wake    chan struct{}
	closed  bool
	done    chan struct{}
	timers  map[int]*time.Timer
	timerID int

	clock func() time.Time
	// OnUncaught receives errors that escaped a task: a host bug or a
	// rejected promise nobody handled, never fatal for the loop.
	OnUncaught func(error)
}

// Config configures NewWithConfig. It is an immutable value: start from
// NewConfig; every With… returns a changed copy.
type Config struct{ clock func() time.Time }

// NewConfig is the default: the wall clock is time.Now.
func NewConfig() Config { return Config{clock: time.Now} }

// WithClock sets the wall clock that Date and timers read (nil: time.Now).
func (c Config) WithClock(now func() time.Time) Config { c.clock = now; return c }

// New makes a realm with the standard built-ins installed, with NewConfig.
func New() *Runtime { return NewWithConfig(NewConfig()) }

// NewWithConfig is New with a Config.
func NewWithConfig(cfg Config) *Runtime {
	rt := &Runtime{
		wake:   make(chan struct{}, 1),
		done:   make(chan struct{}),
		timers: map[int]*time.Timer{},
		clock:  cfg.clock,
	}
	if rt.clock == nil {
		rt.clock = time.Now
	}
	rt.installBuiltins()
	return rt
}

// Now returns the runtime's wall clock.
func (rt *Runtime) Now() time.Time { return rt.clock() }

// Post queues a macrotask; safe from any goroutine. It reports false once
// the loop is closed.
func (rt *Runtime) Post(task func()) bool {
	rt.mu.Lock()
	if rt.closed {
		rt.mu.Unlock()
		return false
	}
	rt.tasks = append(rt.tasks, task)
	rt.mu.Unlock()
	select {
	case rt.wake <- struct{}{}:
	default:
	}
	return true
}

// EnqueueMicrotask queues a job to run before the next macrotask.
func (rt *Runtime) EnqueueMicrotask(job func()) { rt.microtasks = append(rt.microtasks, job) }

// Run drives the loop until ctx ends or Close is called.
func (rt *Runtime) Run(ctx context.Context) {
	defer close(rt.done)
	for {
		rt.mu.Lock()
		batch := rt.tasks
		rt.tasks = nil
		closed := rt.closed
		rt.mu.Unlock()
		for _, task := range batch {
			rt.runTask(task)
		}
		if closed {
			return
		}
		if len(batch) > 0 {
			continue
		}
		select {
		case <-ctx.Done():
			rt.Close()
		case <-rt.wake:
		}
	}
}

func (rt *Runtime) runTask(task func()) {
	defer func() {
		if r := recover(); r != nil {
			rt.uncaught(fmt.Errorf("jsrt: task panicked: %v", r))
		}
	}()
	task()
	rt.DrainMicrotasks()
}

// DrainMicrotasks runs queued microtasks, including ones they queue.
func (rt *Runtime) DrainMicrotasks() {
	for len(rt.microtasks) > 0 {
		job := rt.microtasks[0]
		rt.microtasks[0] = nil
		rt.microtasks = rt.microtasks[1:]
		job()
	}
	rt.microtasks = nil
}

// Close stops the loop after the tasks already queued; pending timers are
// dropped.
func (rt *Runtime) Close() {
	rt.mu.Lock()
	if !rt.closed {
		rt.closed = true
		for id, t := range rt.timers {
			t.Stop()
			delete(rt.timers, id)
		}
	}
	rt.mu.Unlock()
	select {
	case rt.wake <- struct{}{}:
	default:
	}
}

// Done is closed when Run has returned.
func (rt *Runtime) Done() <-chan struct{} { return rt.done }

// SetTimeout runs fn on the loop after d; it returns an id for ClearTimeout.
func (rt *Runtime) SetTimeout(d time.Duration, fn func()) int {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.timerID++
	id := rt.timerID
	if rt.closed {
		return id
	}
	rt.timers[id] = time.AfterFunc(d, func() {
		rt.Post(func() {
			rt.mu.Lock()
			_, live := rt.timers[id]
			delete(rt.timers, id)
			rt.mu.Unlock()
			if live {
				fn()
			}
		})
	})
	return id
}

// ClearTimeout cancels a timer set with SetTimeout.
func (rt *Runtime) ClearTimeout(id int) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if t, ok := rt.timers[id]; ok {
		t.Stop()
		delete(rt.timers, id)
	}
}

func (rt *Runtime) uncaught(err error) {
	if rt.OnUncaught != nil {
		rt.OnUncaught(err)
	}
}

// Get reads v[key] for any value, as Reflect.get does (primitives read
// through their wrappers; only string length is modelled).
func (rt *Runtime) Get(v Value, key string) (Value, error) {
	switch x := v.(type) {
	case *Object:
		return x.Get(key)
	case string:
		if key == "length" {
			return float64(StringLength(x)), nil
		}
	}
	return Undefined, nil
}

// Set writes v[key]; writes to primitives are ignored as in sloppy JS.
func (rt *Runtime) Set(v Value, key string, x Value) error {
	if o, ok := v.(*Object); ok {
		return o.Set(key, x)
	}
	return nil
}

// Call invokes fn with this and args; a non-function throws a TypeError.
func (rt *Runtime) Call(fn Value, this Value, args ...Value) (Value, error) {
	o, ok := fn.(*Object)
	if !ok || o.call == nil {
		return nil, rt.ThrowTypeError("%s is not a function", ToString(fn))
	}
	res, err := o.call(this, args)
	if res == nil {
		res = Undefined
	}
	return res, err
}

// CallMethod invokes this[name](...args).
func (rt *Runtime) CallMethod(this Value, name string, args ...Value) (Value, error) {
	fn, err := rt.Get(this, name)
	if err != nil {
		return nil, err
	}
	if o, ok := fn.(*Object); !ok || o.call == nil {
		return nil, rt.ThrowTypeError("%s is not a function", name)
	}
	return rt.Call(fn, this, args...)
}

// Construct is Reflect.construct(ctor, args).
func (rt *Runtime) Construct(ctor Value, args ...Value) (Value, error) {
	o, ok := ctor.(*Object)
	if !ok || o.construct == nil {
		return nil, rt.ThrowTypeError("%s is not a constructor", ToString(ctor))
	}
	return o.construct(Undefined, args)
}

// InstanceOf is v instanceof ctor.
func (rt *Runtime) InstanceOf(v, ctor Value) bool {
	o, ok := v.(*Object)
	c, ok2 := ctor.(*Object)
	return ok && ok2 && o.InstanceOf(c)
}

// ThrowValue converts any Go error into the JS value a catch block would see.
func (rt *Runtime) ThrowValue(err error) Value {
	var t *Throw
	if errors.As(err, &t) {
		return t.Value
	}
	return rt.NewError(err.Error())
}

// OnUncaughtError reports an exception nobody could catch (a throwing getter
// read by Go, say) without stopping the loop.
func (rt *Runtime) OnUncaughtError(err error) { rt.uncaught(err) }
