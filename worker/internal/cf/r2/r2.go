//go:build js && wasm

// Package r2 wraps an R2 bucket binding with Go types. Bodies are buffered:
// the objects this service stores (custom emoji, shard files) are small.
package r2

import (
	"context"
	"syscall/js"
	"time"

	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

// Bucket is one R2 binding.
type Bucket struct{ v js.Value }

// Open returns the bucket bound as name, or jsutil.ErrUnbound.
func Open(name string) (*Bucket, error) {
	return jsutil.OpenBinding(name, func(v js.Value) *Bucket { return &Bucket{v: v} })
}

// HTTPMetadata is what R2 keeps of an object's HTTP headers.
type HTTPMetadata struct {
	ContentType        string `json:"contentType,omitempty"`
	ContentLanguage    string `json:"contentLanguage,omitempty"`
	ContentDisposition string `json:"contentDisposition,omitempty"`
	ContentEncoding    string `json:"contentEncoding,omitempty"`
	CacheControl       string `json:"cacheControl,omitempty"`
}

// Object is an object's metadata, with its body when one was read.
type Object struct {
	Key            string            `json:"key"`
	Version        string            `json:"version"`
	Size           int64             `json:"size"`
	ETag           string            `json:"etag"`
	HTTPETag       string            `json:"httpEtag"`
	Uploaded       time.Time         `json:"uploaded"`
	HTTPMetadata   HTTPMetadata      `json:"httpMetadata"`
	CustomMetadata map[string]string `json:"customMetadata"`
	Body           []byte            `json:"-"`
	HasBody        bool              `json:"hasBody"`
}

// PutOptions are put()'s options.
type PutOptions struct {
	HTTPMetadata   HTTPMetadata
	CustomMetadata map[string]string
	// OnlyIfETagMatches makes the write conditional ("*" matches any).
	OnlyIfETagMatches string
}

// Put writes an object; nil with no error means the condition failed.
func (b *Bucket) Put(ctx context.Context, key string, body []byte, opts PutOptions) (*Object, error) {
	o := jsutil.NewObject()
	hm, err := jsutil.FromJSON(opts.HTTPMetadata)
	if err != nil {
		return nil, err
	}
	o.Set("httpMetadata", hm)
	if opts.CustomMetadata != nil {
		cm, err := jsutil.FromJSON(opts.CustomMetadata)
		if err != nil {
			return nil, err
		}
		o.Set("customMetadata", cm)
	}
	if opts.OnlyIfETagMatches != "" {
		cond := jsutil.NewObject()
		cond.Set("etagMatches", opts.OnlyIfETagMatches)
		o.Set("onlyIf", cond)
	}
	res, err := jsutil.CallAwait(ctx, b.v, "put", key, jsutil.NewBytes(body), o)
	if err != nil || res.IsNull() || res.IsUndefined() {
		return nil, err
	}
	return objectFrom(ctx, res, false)
}

// Range selects part of an object: Offset and Length, or Suffix bytes.
type Range struct {
	Offset, Length, Suffix int64
}

// Get reads an object (nil when absent), whole or the given range.
func (b *Bucket) Get(ctx context.Context, key string, rng *Range) (*Object, error) {
	o := jsutil.NewObject()
	if rng != nil {
		r := jsutil.NewObject()
		if rng.Suffix > 0 {
			r.Set("suffix", rng.Suffix)
		} else {
			r.Set("offset", rng.Offset)
			if rng.Length > 0 {
				r.Set("length", rng.Length)
			}
		}
		o.Set("range", r)
	}
	res, err := jsutil.CallAwait(ctx, b.v, "get", key, o)
	if err != nil || res.IsNull() || res.IsUndefined() {
		return nil, err
	}
	return objectFrom(ctx, res, true)
}

// Head reads an object's metadata (nil when absent).
func (b *Bucket) Head(ctx context.Context, key string) (*Object, error) {
	res, err := jsutil.CallAwait(ctx, b.v, "head", key)
	if err != nil || res.IsNull() || res.IsUndefined() {
		return nil, err
	}
	return objectFrom(ctx, res, false)
}

// Delete removes keys (missing ones are ignored).
func (b *Bucket) Delete(ctx context.Context, keys ...string) error {
	list := jsutil.Array.New()
	for _, k := range keys {
		list.Call("push", k)
	}
	_, err := jsutil.CallAwait(ctx, b.v, "delete", list)
	return err
}

// ListOptions are list()'s options.
type ListOptions struct {
	Prefix, Cursor, Delimiter string
	Limit                     int
	// IncludeMetadata asks for httpMetadata and customMetadata.
	IncludeMetadata bool
}

// ListResult is one page.
type ListResult struct {
	Objects           []*Object `json:"objects"`
	Truncated         bool      `json:"truncated"`
	Cursor            string    `json:"cursor,omitempty"`
	DelimitedPrefixes []string  `json:"delimitedPrefixes"`
}

// List returns one page of objects in key order.
func (b *Bucket) List(ctx context.Context, opts ListOptions) (*ListResult, error) {
	o := jsutil.NewObject()
	if opts.Prefix != "" {
		o.Set("prefix", opts.Prefix)
	}
	if opts.Cursor != "" {
		o.Set("cursor", opts.Cursor)
	}
	if opts.Delimiter != "" {
		o.Set("delimiter", opts.Delimiter)
	}
	if opts.Limit > 0 {
		o.Set("limit", opts.Limit)
	}
	if opts.IncludeMetadata {
		o.Set("include", jsutil.Array.New("httpMetadata", "customMetadata"))
	}
	res, err := jsutil.CallAwait(ctx, b.v, "list", o)
	if err != nil {
		return nil, err
	}
	out := &ListResult{Truncated: res.Get("truncated").Truthy(), Cursor: jsutil.String(res.Get("cursor"))}
	objs := res.Get("objects")
	for i := 0; i < objs.Length(); i++ {
		obj, err := objectFrom(ctx, objs.Index(i), false)
		if err != nil {
			return nil, err
		}
		out.Objects = append(out.Objects, obj)
	}
	prefixes := res.Get("delimitedPrefixes")
	for i := 0; i < prefixes.Length(); i++ {
		out.DelimitedPrefixes = append(out.DelimitedPrefixes, prefixes.Index(i).String())
	}
	return out, nil
}

// objectFrom reads an R2Object's properties one by one: they are getters,
// which JSON.stringify would not see.
func objectFrom(ctx context.Context, v js.Value, withBody bool) (*Object, error) {
	o := &Object{
		Key:      jsutil.String(v.Get("key")),
		Version:  jsutil.String(v.Get("version")),
		Size:     int64(v.Get("size").Float()),
		ETag:     jsutil.String(v.Get("etag")),
		HTTPETag: jsutil.String(v.Get("httpEtag")),
	}
	if up := v.Get("uploaded"); up.Type() == js.TypeObject {
		o.Uploaded = time.UnixMilli(int64(up.Call("getTime").Float())).UTC()
	}
	if hm := v.Get("httpMetadata"); hm.Type() == js.TypeObject {
		o.HTTPMetadata = HTTPMetadata{
			ContentType:        jsutil.String(hm.Get("contentType")),
			ContentLanguage:    jsutil.String(hm.Get("contentLanguage")),
			ContentDisposition: jsutil.String(hm.Get("contentDisposition")),
			ContentEncoding:    jsutil.String(hm.Get("contentEncoding")),
			CacheControl:       jsutil.String(hm.Get("cacheControl")),
		}
	}
	if cm := v.Get("customMetadata"); cm.Type() == js.TypeObject {
		if err := jsutil.ToJSON(cm, &o.CustomMetadata); err != nil {
			return nil, err
		}
	}
	if withBody && v.Get("arrayBuffer").Type() == js.TypeFunction {
		buf, err := jsutil.CallAwait(ctx, v, "arrayBuffer")
		if err != nil {
			return nil, err
		}
		o.Body, o.HasBody = jsutil.Bytes(buf), true
	}
	return o, nil
}
