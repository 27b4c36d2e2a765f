//go:build js && wasm

package index

// doneWord is a word of dampTables' fill bits. Under js/wasm one thread
// runs every goroutine and sync/atomic's loads are calls, not inlined, on
// the path of every completion: plain loads and stores there.
type doneWord struct{ v uint64 }

func (w *doneWord) Load() uint64   { return w.v }
func (w *doneWord) Store(v uint64) { w.v = v }
