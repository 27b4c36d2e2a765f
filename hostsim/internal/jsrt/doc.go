// Package jsrt is the small JavaScript world that hostsim gives a Go js/wasm
// module in place of a JS engine: values, objects with prototypes, functions
// implemented in Go, promises with a microtask queue, timers and one event
// loop that owns all of it.
//
// It implements only what a Go program compiled with GOOS=js touches through
// syscall/js (see FACTS.md, "The JS surface the Go side touches") and what the
// Workers platform adds. Everything runs on the loop goroutine: other
// goroutines hand work in with Runtime.Post, exactly as I/O completions are
// queued as macrotasks in a JS engine.
package jsrt
