package cf

import (
	"errors"

	"github.com/emojisearch/emojisearch/hostsim/internal/cache"
	"github.com/emojisearch/emojisearch/hostsim/internal/d1"
	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
	"github.com/emojisearch/emojisearch/hostsim/internal/kv"
	"github.com/emojisearch/emojisearch/hostsim/internal/r2"
)

// jsError turns a store's refusal into the exception workerd throws: the
// same class and err.message, without Go's package prefixes.
func (r Realm) jsError(err error) error {
	var kvErr *kv.Error
	var r2Err *r2.Error
	var d1Err *d1.Error
	var cacheErr *cache.Error
	switch {
	case errors.As(err, &cacheErr):
		return r.RT.ThrowTypeError("%s", cacheErr.Message)
	case errors.As(err, &kvErr):
		if kvErr.TypeError {
			return r.RT.ThrowTypeError("%s", kvErr.Message)
		}
		return r.RT.ThrowError("%s", kvErr.Message)
	case errors.As(err, &r2Err):
		return r.throwNamed(r2Err.JSType, r2Err.JSMessage())
	case errors.As(err, &d1Err):
		return r.RT.ThrowError("%s", d1Err.Message)
	}
	return err
}

// throwNamed throws a built-in error class by name, or an Error whose name
// is class (R2Error has no global constructor).
func (r Realm) throwNamed(class, msg string) error {
	if ctor, ok := r.RT.Global.MustGet(class).(*jsrt.Object); ok && class != "" {
		if e, err := r.RT.Construct(ctor, msg); err == nil {
			return &jsrt.Throw{Value: e}
		}
	}
	e := r.RT.NewError(msg)
	if class != "" {
		e.Define("name", class)
	}
	return &jsrt.Throw{Value: e}
}
