// Package jsrttest holds what tests of the packages built on jsrt share:
// waiting, from the test's goroutine, for a promise made on the loop.
package jsrttest

import (
	"testing"
	"time"

	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
)

// Settle runs start on rt's loop (promises are made and awaited there
// only) and waits for the promise it returns: its value, or the rejection
// reason. A promise that does not settle in five seconds fails the test,
// so a lost resolve shows as a failure, not a hung run.
func Settle(t testing.TB, rt *jsrt.Runtime, start func() jsrt.Value) (ok, rejected jsrt.Value) {
	t.Helper()
	type result struct{ ok, err jsrt.Value }
	ch := make(chan result, 1)
	rt.Post(func() {
		rt.Await(start(), func(v jsrt.Value) { ch <- result{ok: v} }, func(e jsrt.Value) { ch <- result{err: e} })
	})
	select {
	case r := <-ch:
		return r.ok, r.err
	case <-time.After(5 * time.Second):
		t.Fatal("promise never settled")
		return nil, nil
	}
}
