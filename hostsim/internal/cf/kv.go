package cf

import (
	"context"

	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
	"github.com/emojisearch/emojisearch/hostsim/internal/kv"
)

// KV returns a KVNamespace object over ns: get, getWithMetadata, put,
// delete and list, with the value types "text", "json", "arrayBuffer" and
// "stream".
func (r Realm) KV(ns *kv.Namespace) *jsrt.Object {
	obj := r.RT.NewHostObject(nil, "KvNamespace", ns)
	get := func(withMeta bool) func(args []jsrt.Value) (func(context.Context) (func() (jsrt.Value, error), error), error) {
		return func(args []jsrt.Value) (func(context.Context) (func() (jsrt.Value, error), error), error) {
			key := jsrt.ToString(jsrt.Arg(args, 0))
			typ := "text"
			switch t := jsrt.Arg(args, 1).(type) {
			case string:
				typ = t
			case *jsrt.Object:
				if s, ok := t.MustGet("type").(string); ok {
					typ = s
				}
			}
			switch typ {
			case "text", "json", "arrayBuffer", "stream":
			default:
				return nil, r.RT.ThrowTypeError("Unknown response type. Possible types are \"text\", \"arrayBuffer\", \"json\", and \"stream\".")
			}
			return func(ctx context.Context) (func() (jsrt.Value, error), error) {
				e, found, err := ns.Get(ctx, key)
				if err != nil {
					return nil, err
				}
				return func() (jsrt.Value, error) {
					var value jsrt.Value = jsrt.Null
					if found {
						var err error
						if value, err = r.kvValue(typ, e.Value); err != nil {
							return nil, err
						}
					}
					if !withMeta {
						return value, nil
					}
					res := r.RT.NewObject()
					res.Define("value", value)
					res.Define("metadata", r.fromJSON(e.Metadata))
					res.Define("cacheStatus", jsrt.Null)
					return res, nil
				}, nil
			}, nil
		}
	}
	r.method(obj, "get", get(false))
	r.method(obj, "getWithMetadata", get(true))
	r.method(obj, "put", func(args []jsrt.Value) (func(context.Context) (func() (jsrt.Value, error), error), error) {
		key := jsrt.ToString(jsrt.Arg(args, 0))
		value, ok := bytesOf(jsrt.Arg(args, 1))
		if !ok {
			return nil, r.RT.ThrowTypeError("KV put() accepts only strings, ArrayBuffers, ArrayBufferViews, and ReadableStreams as values.")
		}
		opts := jsrt.Arg(args, 2)
		var po kv.PutOptions
		if v := option(opts, "expiration"); !jsrt.IsUndefined(v) {
			po.Expiration = int64(jsrt.ToNumber(v))
		}
		if v := option(opts, "expirationTtl"); !jsrt.IsUndefined(v) {
			po.ExpirationTTL = int64(jsrt.ToNumber(v))
			if po.ExpirationTTL <= 0 {
				return nil, r.RT.ThrowError("KV PUT failed: 400 Invalid expiration_ttl of %d. Please specify integer greater than 0.", po.ExpirationTTL)
			}
		}
		if v := option(opts, "metadata"); !jsrt.IsNullish(v) {
			raw, err := toJSON(v)
			if err != nil {
				return nil, err
			}
			po.Metadata = raw
		}
		return func(ctx context.Context) (func() (jsrt.Value, error), error) {
			return done, ns.Put(ctx, key, value, po)
		}, nil
	})
	r.method(obj, "delete", func(args []jsrt.Value) (func(context.Context) (func() (jsrt.Value, error), error), error) {
		key := jsrt.ToString(jsrt.Arg(args, 0))
		return func(ctx context.Context) (func() (jsrt.Value, error), error) {
			return done, ns.Delete(ctx, key)
		}, nil
	})
	r.method(obj, "list", func(args []jsrt.Value) (func(context.Context) (func() (jsrt.Value, error), error), error) {
		opts := jsrt.Arg(args, 0)
		var lo kv.ListOptions
		if v, ok := option(opts, "prefix").(string); ok {
			lo.Prefix = v
		}
		if v := option(opts, "limit"); !jsrt.IsNullish(v) {
			lo.Limit = int(jsrt.ToNumber(v))
		}
		if v, ok := option(opts, "cursor").(string); ok {
			lo.Cursor = v
		}
		return func(ctx context.Context) (func() (jsrt.Value, error), error) {
			res, err := ns.List(ctx, lo)
			if err != nil {
				return nil, err
			}
			return func() (jsrt.Value, error) {
				keys := make([]jsrt.Value, len(res.Keys))
				for i, k := range res.Keys {
					o := r.RT.NewObject()
					o.Define("name", k.Name)
					if k.Expiration != 0 {
						o.Define("expiration", float64(k.Expiration))
					}
					if k.Metadata != nil {
						o.Define("metadata", r.fromJSON(k.Metadata))
					}
					keys[i] = o
				}
				out := r.RT.NewObject()
				out.Define("keys", r.RT.NewArray(keys...))
				out.Define("list_complete", res.ListComplete)
				if !res.ListComplete {
					out.Define("cursor", res.Cursor)
				}
				out.Define("cacheStatus", jsrt.Null)
				return out, nil
			}, nil
		}, nil
	})
	return obj
}

func (r Realm) kvValue(typ string, b []byte) (jsrt.Value, error) {
	switch typ {
	case "json":
		return r.RT.ParseJSON(string(b))
	case "arrayBuffer":
		return r.RT.NewArrayBuffer(b), nil
	case "stream":
		return r.RT.Construct(r.RT.Global.MustGet("ReadableStream"), r.streamSource(b))
	}
	return string(b), nil
}

// streamSource is an underlying source that enqueues b once.
func (r Realm) streamSource(b []byte) *jsrt.Object {
	src := r.RT.NewObject()
	r.RT.Method(src, "start", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		ctrl := jsrt.Arg(args, 0)
		if len(b) > 0 {
			if _, err := r.RT.CallMethod(ctrl, "enqueue", r.RT.NewBytes(b)); err != nil {
				return nil, err
			}
		}
		return r.RT.CallMethod(ctrl, "close")
	})
	return src
}
