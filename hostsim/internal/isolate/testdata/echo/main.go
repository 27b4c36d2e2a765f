// Command echo speaks the entry protocol (worker/entry/PROTOCOL.md) with
// nothing else behind it, so the isolate is tested apart from our service.
package main

import (
	"fmt"
	"net/url"
	"runtime"
	"syscall/js"
	"time"
)

//go:wasmimport workers ready
func ready()

var runs, scheduled int

func main() {
	binding := js.Global().Get("context").Get("binding")
	env := js.Global().Get("context").Get("env")
	binding.Set("fetch", js.FuncOf(func(_ js.Value, args []js.Value) any {
		req, respond, settle := args[0], args[1], args[2]
		go func() {
			u, _ := url.Parse(req.Get("url").String())
			body := ""
			if b := req.Get("body"); !b.IsNull() {
				buf := make([]byte, b.Length())
				js.CopyBytesToGo(buf, b)
				body = string(buf)
			}
			runs++
			switch u.Path {
			case "/panic":
				panic("requested")
			case "/hang":
				return
			case "/gc":
				// Go frees its JS references from finalizers: collect twice so
				// they have run before the answer.
				runtime.GC()
				runtime.GC()
			case "/scheduled":
				u.Path = fmt.Sprintf("/scheduled=%d", scheduled)
			}
			text := fmt.Sprintf("%s %s body=%q runs=%d greeting=%s", req.Get("method").String(), u.Path, body, runs, env.Get("GREETING").String())
			res := js.Global().Get("Object").New()
			res.Set("status", 200)
			hdrs := js.Global().Get("Array").New()
			hdrs.Call("push", js.Global().Get("Array").New("content-type", "text/plain"))
			res.Set("headers", hdrs)
			out := js.Global().Get("Uint8Array").New(len(text))
			js.CopyBytesToJS(out, []byte(text))
			res.Set("body", out)
			respond.Invoke(js.Null(), res)
			if u.Path == "/background" {
				time.Sleep(50 * time.Millisecond)
			}
			settle.Invoke()
		}()
		return nil
	}))
	binding.Set("scheduled", js.FuncOf(func(_ js.Value, args []js.Value) any {
		ev, done := args[0], args[1]
		go func() {
			scheduled++
			if ev.Get("cron").String() == "fail" {
				done.Invoke("job failed")
				return
			}
			done.Invoke(js.Null())
		}()
		return nil
	}))
	ready()
	select {}
}
