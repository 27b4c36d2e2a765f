// Package cf is the Cloudflare runtime surface as the Worker sees it:
// hostsim's local stores exposed as the JS objects workerd provides (the env
// bindings env.KV, env.DB, env.OBJECTS, ... and the caches global). The
// Worker's side of the same surface has the same name, worker/internal/cf.
// It only converts between JS values and the stores' Go APIs; behaviour and
// limits live in the store packages (one per binding kind).
package cf

import (
	"context"
	"encoding/json"

	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
	"github.com/emojisearch/emojisearch/hostsim/internal/webapi"
)

// Realm is what every adapter needs: the JS world and its web classes.
type Realm struct {
	RT  *jsrt.Runtime
	Web *webapi.Web
}

// method defines an async method: args are read on the loop, work runs on
// its own goroutine (stores do real I/O), the result is built on the loop.
func (r Realm) method(obj *jsrt.Object, name string, fn func(args []jsrt.Value) (func(context.Context) (func() (jsrt.Value, error), error), error)) {
	r.RT.Method(obj, name, func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		work, err := fn(args)
		if err != nil {
			return r.RT.Rejected(r.RT.ThrowValue(r.jsError(err))), nil
		}
		return r.RT.Async(func() (func() (jsrt.Value, error), error) {
			finish, err := work(context.Background())
			if err != nil {
				return nil, r.jsError(err)
			}
			return finish, nil
		}), nil
	})
}

// done is a result builder for operations that resolve to undefined.
func done() (jsrt.Value, error) { return jsrt.Undefined, nil }

// bytesOf reads a JS string, ArrayBuffer or typed array as bytes.
func bytesOf(v jsrt.Value) ([]byte, bool) {
	switch x := v.(type) {
	case string:
		return []byte(x), true
	case *jsrt.Object:
		if b := x.Bytes(); b != nil {
			return append([]byte(nil), b...), true
		}
	}
	return nil, false
}

// option reads opts[key] when opts is an object.
func option(opts jsrt.Value, key string) jsrt.Value {
	if o, ok := opts.(*jsrt.Object); ok {
		return o.MustGet(key)
	}
	return jsrt.Undefined
}

// toJSON serialises a JS value as JSON.stringify would.
func toJSON(v jsrt.Value) (json.RawMessage, error) {
	s, err := jsrt.StringifyJSON(v)
	return json.RawMessage(s), err
}

// fromJSON parses stored JSON into a JS value.
func (r Realm) fromJSON(raw json.RawMessage) jsrt.Value {
	if raw == nil {
		return jsrt.Null
	}
	v, err := r.RT.ParseJSON(string(raw))
	if err != nil {
		return jsrt.Null
	}
	return v
}
