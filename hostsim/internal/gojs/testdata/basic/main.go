// Command basic exercises the js/wasm ABI surface hostsim emulates: calls in
// both directions, promises, timers, bytes, randomness, exceptions and exit.
package main

import (
	"crypto/rand"
	"fmt"
	"os"
	"syscall/js"
	"time"
)

func await(p js.Value) (js.Value, bool) {
	type result struct {
		v  js.Value
		ok bool
	}
	ch := make(chan result, 1)
	var onOK, onErr js.Func
	onOK = js.FuncOf(func(_ js.Value, args []js.Value) any { ch <- result{args[0], true}; return nil })
	onErr = js.FuncOf(func(_ js.Value, args []js.Value) any { ch <- result{args[0], false}; return nil })
	p.Call("then", onOK, onErr)
	r := <-ch
	onOK.Release()
	onErr.Release()
	return r.v, r.ok
}

func main() {
	fmt.Println("hello from go")
	g := js.Global()
	report := g.Get("report")

	v, ok := await(g.Get("Promise").Call("resolve", 42))
	report.Invoke("resolved", v, ok)

	v, ok = await(g.Get("Promise").Call("reject", g.Get("Error").New("boom")))
	report.Invoke("rejected", v.Get("message"), ok)

	start := time.Now()
	time.Sleep(20 * time.Millisecond)
	report.Invoke("slept", time.Since(start) >= 20*time.Millisecond)

	b := make([]byte, 16)
	_, _ = rand.Read(b)
	arr := g.Get("Uint8Array").New(3)
	js.CopyBytesToJS(arr, []byte{1, 2, 3})
	back := make([]byte, 3)
	js.CopyBytesToGo(back, arr)
	report.Invoke("bytes", fmt.Sprint(back), arr.Length())

	func() {
		defer func() { report.Invoke("caught", fmt.Sprint(recover() != nil)) }()
		g.Call("notAFunction")
	}()

	obj := g.Get("Object").New()
	obj.Set("a", "x")
	obj.Set("b", 2.5)
	entries := g.Get("Object").Call("entries", obj)
	report.Invoke("entries", entries.Length(), entries.Index(1).Index(1))

	g.Set("add", js.FuncOf(func(_ js.Value, args []js.Value) any { return args[0].Int() + args[1].Int() }))
	g.Set("sleepThenCall", js.FuncOf(func(_ js.Value, args []js.Value) any {
		cb := args[0]
		go func() {
			time.Sleep(5 * time.Millisecond)
			cb.Invoke("later")
		}()
		return nil
	}))
	g.Set("exit", js.FuncOf(func(_ js.Value, args []js.Value) any {
		go os.Exit(args[0].Int())
		return nil
	}))
	g.Set("crash", js.FuncOf(func(_ js.Value, args []js.Value) any {
		go func() { panic("crash requested") }()
		return nil
	}))
	report.Invoke("ready")
	select {}
}
