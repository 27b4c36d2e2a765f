package jsrt_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
)

// onLoop runs fn as one macrotask of a fresh runtime and waits for the
// microtasks it queued.
func onLoop(t *testing.T, fn func(rt *jsrt.Runtime)) *jsrt.Runtime {
	t.Helper()
	rt := jsrt.New()
	go rt.Run(context.Background())
	t.Cleanup(rt.Close)
	done := make(chan struct{})
	rt.Post(func() { fn(rt) })
	rt.Post(func() { close(done) })
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("loop stuck")
	}
	return rt
}

func logger(rt *jsrt.Runtime, log *[]string, entry string) *jsrt.Object {
	return rt.NewFunction("log", func(jsrt.Value, []jsrt.Value) (jsrt.Value, error) {
		*log = append(*log, entry)
		return jsrt.Undefined, nil
	})
}

func callThen(t *testing.T, rt *jsrt.Runtime, p jsrt.Value, fn jsrt.Value) jsrt.Value {
	t.Helper()
	res, err := rt.CallMethod(p, "then", fn)
	require.NoError(t, err)
	return res
}

// The order ECMAScript gives: reactions in registration order, one tick per
// chained then, and two extra ticks to adopt a thenable.
func TestMicrotaskOrder(t *testing.T) {
	var log []string
	onLoop(t, func(rt *jsrt.Runtime) {
		resolved := func() jsrt.Value {
			p, err := rt.CallMethod(rt.PromiseCtor, "resolve")
			require.NoError(t, err)
			return p
		}
		p1 := callThen(t, rt, resolved(), logger(rt, &log, "1"))
		callThen(t, rt, p1, logger(rt, &log, "4"))
		callThen(t, rt, resolved(), logger(rt, &log, "2"))
		_, err := rt.CallMethod(rt.Global, "queueMicrotask", logger(rt, &log, "3"))
		require.NoError(t, err)
	})
	assert.Equal(t, []string{"1", "2", "3", "4"}, log)

	log = nil
	onLoop(t, func(rt *jsrt.Runtime) {
		p, _ := rt.CallMethod(rt.PromiseCtor, "resolve")
		executor := rt.NewFunction("executor", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
			return rt.Call(args[0], jsrt.Undefined, p)
		})
		x, err := rt.Construct(rt.PromiseCtor, executor)
		require.NoError(t, err)
		callThen(t, rt, x, logger(rt, &log, "a"))
		b := callThen(t, rt, p, logger(rt, &log, "b"))
		c := callThen(t, rt, b, logger(rt, &log, "c"))
		callThen(t, rt, c, logger(rt, &log, "d"))
	})
	assert.Equal(t, []string{"b", "c", "a", "d"}, log)
}

func TestPromiseRejectionAndCatch(t *testing.T) {
	var got jsrt.Value
	onLoop(t, func(rt *jsrt.Runtime) {
		thrower := rt.NewFunction("thrower", func(jsrt.Value, []jsrt.Value) (jsrt.Value, error) {
			return nil, rt.ThrowTypeError("bad")
		})
		p := callThen(t, rt, rt.Resolved(1.0), thrower)
		caught, err := rt.CallMethod(p, "catch", rt.NewFunction("c", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
			got = args[0]
			return "recovered", nil
		}))
		require.NoError(t, err)
		callThen(t, rt, caught, rt.NewFunction("after", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
			assert.Equal(t, "recovered", args[0])
			return jsrt.Undefined, nil
		}))
	})
	require.IsType(t, &jsrt.Object{}, got)
	assert.Equal(t, "TypeError: bad", jsrt.ToString(got))
}

func TestUnhandledRejectionIsReported(t *testing.T) {
	reported := make(chan error, 1)
	rt := jsrt.New()
	rt.OnUncaught = func(err error) { reported <- err }
	go rt.Run(context.Background())
	defer rt.Close()
	rt.Post(func() { rt.Rejected(rt.NewError("nobody listens")) })
	select {
	case err := <-reported:
		assert.Contains(t, err.Error(), "nobody listens")
	case <-time.After(2 * time.Second):
		t.Fatal("unhandled rejection not reported")
	}
}

func TestPromiseAll(t *testing.T) {
	var got []jsrt.Value
	onLoop(t, func(rt *jsrt.Runtime) {
		list := rt.NewArray(rt.Resolved(1.0), 2.0, rt.Resolved("three"))
		all, err := rt.CallMethod(rt.PromiseCtor, "all", list)
		require.NoError(t, err)
		rt.Await(all, func(v jsrt.Value) { got = v.(*jsrt.Object).Elems() }, nil)
	})
	assert.Equal(t, []jsrt.Value{1.0, 2.0, "three"}, got)
}

func TestTimersFireInOrder(t *testing.T) {
	rt := jsrt.New()
	go rt.Run(context.Background())
	defer rt.Close()
	out := make(chan string, 3)
	rt.Post(func() {
		rt.SetTimeout(30*time.Millisecond, func() { out <- "late" })
		rt.SetTimeout(5*time.Millisecond, func() { out <- "early" })
		id := rt.SetTimeout(10*time.Millisecond, func() { out <- "cleared" })
		rt.ClearTimeout(id)
	})
	assert.Equal(t, "early", <-out)
	assert.Equal(t, "late", <-out)
	select {
	case v := <-out:
		t.Fatalf("cleared timer fired: %s", v)
	case <-time.After(50 * time.Millisecond):
	}
}

func TestBytesAndObjects(t *testing.T) {
	onLoop(t, func(rt *jsrt.Runtime) {
		b, err := rt.Construct(rt.Uint8ArrayCtor, 4.0)
		require.NoError(t, err)
		bytes := b.(*jsrt.Object)
		require.NoError(t, bytes.Set("1", 300.0))
		assert.Equal(t, []byte{0, 44, 0, 0}, bytes.Bytes(), "stores wrap modulo 256")
		sub, err := rt.CallMethod(bytes, "subarray", 1.0, 3.0)
		require.NoError(t, err)
		assert.Equal(t, 2.0, sub.(*jsrt.Object).MustGet("length"))
		require.NoError(t, sub.(*jsrt.Object).Set("0", 7.0))
		assert.Equal(t, byte(7), bytes.Bytes()[1], "subarray shares memory")

		o := rt.NewObject()
		o.Define("z", 1.0)
		o.Define("a", 2.0)
		entries, err := rt.CallMethod(rt.ObjectCtor, "entries", o)
		require.NoError(t, err)
		first := entries.(*jsrt.Object).Elems()[0].(*jsrt.Object).Elems()
		assert.Equal(t, []jsrt.Value{"z", 1.0}, first, "insertion order")

		_, err = rt.CallMethod(o, "missing")
		assert.Error(t, err)
		_, err = rt.Construct(rt.NewFunction("f", nil))
		assert.Error(t, err, "a plain function is not a constructor")
	})
}

func TestFormatNumber(t *testing.T) {
	cases := map[float64]string{
		0: "0", 1: "1", -1.5: "-1.5", 0.1: "0.1", 1e21: "1e+21", 123456789012: "123456789012",
		1e-7: "1e-7", math.NaN(): "NaN", math.Inf(1): "Infinity", math.Inf(-1): "-Infinity",
	}
	for in, want := range cases {
		assert.Equal(t, want, jsrt.FormatNumber(in), "%v", in)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	onLoop(t, func(rt *jsrt.Runtime) {
		v, err := rt.ParseJSON(`{"b":[1,"x",null,true],"a":{"c":2.5}}`)
		require.NoError(t, err)
		s, err := jsrt.StringifyJSON(v)
		require.NoError(t, err)
		assert.JSONEq(t, `{"a":{"c":2.5},"b":[1,"x",null,true]}`, s)
		_, err = rt.ParseJSON(`{broken`)
		assert.Error(t, err)
	})
}

// Array.prototype.join as JS: numbers as Number#toString prints them (the
// worker parses embedding rows joined this way), nullish elements empty.
func TestArrayJoin(t *testing.T) {
	cases := []struct {
		json string
		sep  []jsrt.Value
		want string
	}{
		{`[0.1,-2.5e-7,3]`, nil, "0.1,-2.5e-7,3"},
		{`[1,null,"x",true]`, []jsrt.Value{"-"}, "1--x-true"},
		{`[]`, nil, ""},
		{`[[1,2],3]`, nil, "1,2,3"},
	}
	onLoop(t, func(rt *jsrt.Runtime) {
		for _, tc := range cases {
			v, err := rt.ParseJSON(tc.json)
			require.NoError(t, err)
			got, err := rt.CallMethod(v, "join", tc.sep...)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got, tc.json)
		}
	})
}
