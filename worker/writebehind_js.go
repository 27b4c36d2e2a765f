//go:build js && wasm

package main

import (
	"fmt"

	"github.com/emojisearch/emojisearch/service/writebehind"
	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

// newWriteBehind is the instance's one delayed write, shared by every
// in-memory counter (metering; analytics joins it). Its timer is a JS
// setTimeout armed by the counting request itself, so the request that
// keeps the write alive is the one whose waitUntil waits for it
// (PROTOCOL.md rule 1: no Go timers).
func newWriteBehind() *writebehind.Writer {
	w, err := writebehind.New(writebehind.NewConfig().
		WithTimer(jsutil.After).
		WithErrorHook(func(err error) { fmt.Println("write-behind:", err) }))
	if err != nil {
		panic(err) // the defaults are valid: a programming error
	}
	return w
}
