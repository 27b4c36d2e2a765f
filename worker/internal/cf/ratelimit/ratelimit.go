//go:build js && wasm

// Package ratelimit wraps the Workers Rate Limiting binding.
package ratelimit

import (
	"context"
	"syscall/js"

	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

// Limiter is one [[ratelimits]] binding.
type Limiter struct{ v js.Value }

// Open returns the limiter bound as name, or jsutil.ErrUnbound.
func Open(name string) (*Limiter, error) {
	return jsutil.OpenBinding(name, func(v js.Value) *Limiter { return &Limiter{v: v} })
}

// Allow counts one call for key and reports whether it is within the limit.
func (l *Limiter) Allow(ctx context.Context, key string) (bool, error) {
	opts := jsutil.NewObject()
	opts.Set("key", key)
	res, err := jsutil.CallAwait(ctx, l.v, "limit", opts)
	if err != nil {
		return false, err
	}
	return res.Get("success").Truthy(), nil
}
