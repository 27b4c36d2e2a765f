package kv

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/emojisearch/emojisearch/hostsim/internal/filestore"
)

// Namespace is one Workers KV namespace persisted in a directory. Like KV
// under `wrangler dev` it is strongly consistent: a put is visible to the very
// next get. It is safe for concurrent use.
type Namespace struct {
	store *filestore.Store
	now   func() time.Time
}

// Config configures OpenWithConfig: WithClock (tests move time forward instead of sleeping through expirations). It is an immutable
// value: start from NewConfig; every With… returns a changed copy.
type Config = filestore.Config

// NewConfig is the default: time.Now and crypto/rand.
func NewConfig() Config { return filestore.NewConfig() }

// Open opens (creating if needed) the namespace stored in dir. Use one
// directory per namespace.
func Open(dir string) (*Namespace, error) { return OpenWithConfig(dir, NewConfig()) }

// OpenWithConfig is Open with a Config.
func OpenWithConfig(dir string, cfg Config) (*Namespace, error) {
	env, err := filestore.NewEnv(dir, cfg)
	if err != nil {
		return nil, fmt.Errorf("kv: %w", err)
	}
	store, err := filestore.Open(dir, env.Log)
	if err != nil {
		return nil, fmt.Errorf("kv: %w", err)
	}
	return &Namespace{store: store, now: env.Now}, nil
}

// Entry is a stored value with what was stored beside it.
type Entry struct {
	Value []byte
	// Metadata is the JSON given to put; nil when there was none.
	Metadata json.RawMessage
	// Expiration is in unix seconds; 0 means the key never expires.
	Expiration int64
}

// PutOptions mirror KVNamespacePutOptions. A zero field is treated as not
// given (JS has no way to tell an explicit 0 apart after conversion).
type PutOptions struct {
	// Expiration is an absolute unix time in seconds, at least 60 s ahead.
	Expiration int64
	// ExpirationTTL is seconds from now, at least 60; it wins over Expiration.
	ExpirationTTL int64
	// Metadata is any JSON value of at most 1024 bytes serialised.
	Metadata json.RawMessage
}

// ListOptions mirror KVNamespaceListOptions.
type ListOptions struct {
	Prefix string
	// Limit is 1 to 1000; 0 (or less) means 1000, as workerd sends none.
	Limit int
	// Cursor continues a previous list from where it stopped.
	Cursor string
}

// KeyInfo is one listed key.
type KeyInfo struct {
	Name string
	// Expiration is in unix seconds; 0 means none.
	Expiration int64
	// Metadata is the key's JSON metadata; nil when there is none.
	Metadata json.RawMessage
}

// ListResult is one page of keys in byte order of their names. Cursor is set
// only when ListComplete is false.
type ListResult struct {
	Keys         []KeyInfo
	ListComplete bool
	Cursor       string
}

// Get returns key's entry. Expired keys are not found (and are removed).
func (n *Namespace) Get(ctx context.Context, key string) (Entry, bool, error) {
	if err := ctx.Err(); err != nil {
		return Entry{}, false, err
	}
	if err := validateKey(methodGet, key); err != nil {
		return Entry{}, false, err
	}
	rec, ok, err := n.store.Get(key, n.now())
	if err != nil || !ok {
		return Entry{}, false, wrap(err)
	}
	return Entry{Value: rec.Value, Metadata: rec.Metadata, Expiration: unixSeconds(rec.Expiration)}, true, nil
}

// Put stores value under key, replacing what was there.
func (n *Namespace) Put(ctx context.Context, key string, value []byte, opts PutOptions) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	expiration, metadata, err := validatePut(key, value, opts, n.now().Unix())
	if err != nil {
		return err
	}
	rec := filestore.Record{Key: key, Value: value, Metadata: metadata}
	if expiration != 0 {
		rec.Expiration = time.Unix(expiration, 0)
	}
	return wrap(n.store.Put(rec))
}

// Delete removes key; deleting a missing key succeeds, as in Workers.
func (n *Namespace) Delete(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := validateKey(methodDelete, key); err != nil {
		return err
	}
	_, err := n.store.Delete(key, n.now())
	return wrap(err)
}

// List returns live keys starting with opts.Prefix, sorted by name. The
// cursor is the base64 of the last key returned, as in miniflare, so keys
// added between pages still show up.
func (n *Namespace) List(ctx context.Context, opts ListOptions) (ListResult, error) {
	if err := ctx.Err(); err != nil {
		return ListResult{}, err
	}
	limit, err := validateList(opts)
	if err != nil {
		return ListResult{}, err
	}
	recs, err := n.store.List(opts.Prefix, n.now())
	if err != nil {
		return ListResult{}, wrap(err)
	}
	if opts.Cursor != "" {
		recs = filestore.After(recs, filestore.DecodeCursor(opts.Cursor))
	}
	res := ListResult{Keys: []KeyInfo{}, ListComplete: len(recs) <= limit}
	if !res.ListComplete {
		recs = recs[:limit]
		res.Cursor = filestore.EncodeCursor(recs[limit-1].Key)
	}
	for _, rec := range recs {
		res.Keys = append(res.Keys, KeyInfo{Name: rec.Key, Expiration: unixSeconds(rec.Expiration), Metadata: rec.Metadata})
	}
	return res, nil
}

func unixSeconds(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

func wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("kv: %w", err)
}
