//go:build js && wasm

package jsutil

import "syscall/js"

// OpenBinding is the Open of every binding wrapper in worker/internal/cf:
// it looks name up on env and wraps the binding's JS object, or returns
// ErrUnbound when wrangler.toml binds nothing under that name (hostsim
// leaves the AI binding out without a local model, for one). T is always a
// pointer's element, so the wrappers share one instantiation.
func OpenBinding[T any](name string, wrap func(js.Value) *T) (*T, error) {
	v := Env().Get(name)
	if v.IsUndefined() {
		return nil, ErrUnbound
	}
	return wrap(v), nil
}
