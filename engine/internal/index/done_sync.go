//go:build !(js && wasm)

package index

import "sync/atomic"

// doneWord is a word of dampTables' fill bits: set under the mutex, read
// without it by concurrent searches.
type doneWord = atomic.Uint64
