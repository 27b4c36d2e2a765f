//go:build js && wasm

// Command worker is the Cloudflare Workers module: Go compiled with
// GOOS=js GOARCH=wasm, started once per isolate by worker/entry/worker.mjs
// and kept for many requests (see worker/entry/PROTOCOL.md). It only turns
// the platform's bindings into an app.Platform; service/app composes the
// service.
package main

import (
	"fmt"

	"github.com/emojisearch/emojisearch/service/app"
	"github.com/emojisearch/emojisearch/worker/internal/jsbridge"
)

func main() {
	p := platform()
	diagnose(&p)
	a := app.New(p)
	jsbridge.Serve(a.Handler, a.Scheduled)
}

// logf is the platform's log: a line on standard output, which the
// runtime keeps.
func logf(format string, args ...any) { fmt.Printf(format+"\n", args...) }
