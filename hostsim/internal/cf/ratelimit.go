package cf

import (
	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
	"github.com/emojisearch/emojisearch/hostsim/internal/ratelimit"
)

// RateLimit returns a RateLimit binding: limit({key}) resolves to
// {success}. Counting is in memory, so it answers without I/O.
func (r Realm) RateLimit(l *ratelimit.Limiter) *jsrt.Object {
	obj := r.RT.NewHostObject(nil, "RateLimit", l)
	r.RT.Method(obj, "limit", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		key, ok := option(jsrt.Arg(args, 0), "key").(string)
		if !ok {
			return r.RT.Rejected(r.RT.NewTypeError("limit() expects an options object with a string key")), nil
		}
		res := r.RT.NewObject()
		res.Define("success", l.Limit(key))
		return r.RT.Resolved(res), nil
	})
	return obj
}
