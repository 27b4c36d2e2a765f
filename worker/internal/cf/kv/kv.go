//go:build js && wasm

// Package kv wraps a Workers KV namespace binding with Go types.
package kv

import (
	"context"
	"encoding/json"
	"syscall/js"

	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

// Namespace is one KV binding.
type Namespace struct{ v js.Value }

// Open returns the namespace bound as name, or jsutil.ErrUnbound.
func Open(name string) (*Namespace, error) {
	return jsutil.OpenBinding(name, func(v js.Value) *Namespace { return &Namespace{v: v} })
}

// Get returns key's value; found is false for a missing key (never the
// string "<null>", syumai's pitfall).
func (n *Namespace) Get(ctx context.Context, key string) (value []byte, found bool, err error) {
	res, err := jsutil.CallAwait(ctx, n.v, "get", key, "arrayBuffer")
	if err != nil || res.IsNull() || res.IsUndefined() {
		return nil, false, err
	}
	return jsutil.Bytes(res), true, nil
}

// PutOptions mirror KVNamespacePutOptions; zero fields are not sent.
type PutOptions struct {
	ExpirationTTL int64
	Expiration    int64
	Metadata      any
}

// Put stores value under key.
func (n *Namespace) Put(ctx context.Context, key string, value []byte, opts PutOptions) error {
	o := jsutil.NewObject()
	if opts.ExpirationTTL != 0 {
		o.Set("expirationTtl", opts.ExpirationTTL)
	}
	if opts.Expiration != 0 {
		o.Set("expiration", opts.Expiration)
	}
	if opts.Metadata != nil {
		meta, err := jsutil.FromJSON(opts.Metadata)
		if err != nil {
			return err
		}
		o.Set("metadata", meta)
	}
	_, err := jsutil.CallAwait(ctx, n.v, "put", key, jsutil.NewBytes(value), o)
	return err
}

// Delete removes key.
func (n *Namespace) Delete(ctx context.Context, key string) error {
	_, err := jsutil.CallAwait(ctx, n.v, "delete", key)
	return err
}

// Key is one listed key.
type Key struct {
	Name       string          `json:"name"`
	Expiration int64           `json:"expiration,omitempty"`
	Metadata   json.RawMessage `json:"metadata,omitempty"`
}

// ListResult is one page of a listing.
type ListResult struct {
	Keys         []Key  `json:"keys"`
	ListComplete bool   `json:"list_complete"`
	Cursor       string `json:"cursor,omitempty"`
}

// List returns keys with prefix, limit per page, from cursor.
func (n *Namespace) List(ctx context.Context, prefix string, limit int, cursor string) (*ListResult, error) {
	o := jsutil.NewObject()
	if prefix != "" {
		o.Set("prefix", prefix)
	}
	if limit > 0 {
		o.Set("limit", limit)
	}
	if cursor != "" {
		o.Set("cursor", cursor)
	}
	res, err := jsutil.CallAwait(ctx, n.v, "list", o)
	if err != nil {
		return nil, err
	}
	var out ListResult
	if err := jsutil.ToJSON(res, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
