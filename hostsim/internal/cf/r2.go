package cf

import (
	"context"
	"time"

	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
	"github.com/emojisearch/emojisearch/hostsim/internal/r2"
	"github.com/emojisearch/emojisearch/hostsim/internal/webapi"
)

type asyncWork = func(context.Context) (func() (jsrt.Value, error), error)

// R2 returns an R2Bucket object over b: put, get, head, delete, list.
func (r Realm) R2(b *r2.Bucket) *jsrt.Object {
	obj := r.RT.NewHostObject(nil, "R2Bucket", b)
	r.RT.Method(obj, "put", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		key := jsrt.ToString(jsrt.Arg(args, 0))
		opts, err := r.r2PutOptions(jsrt.Arg(args, 2))
		if err != nil {
			return r.RT.Rejected(r.RT.ThrowValue(r.jsError(err))), nil
		}
		p, resolve, reject := r.RT.NewPromise()
		// The value may be a stream: read it on the loop, then store off it.
		r.Web.ReadValue(jsrt.Arg(args, 1), func(body []byte, err error) {
			if err != nil {
				reject(r.RT.ThrowValue(err))
				return
			}
			r.RT.Await(r.RT.Async(func() (func() (jsrt.Value, error), error) {
				o, err := b.Put(context.Background(), key, body, opts)
				if err != nil {
					return nil, r.jsError(err)
				}
				return func() (jsrt.Value, error) { return r.r2Object(o, nil), nil }, nil
			}), resolve, reject)
		})
		return p, nil
	})
	r.method(obj, "get", func(args []jsrt.Value) (asyncWork, error) {
		key := jsrt.ToString(jsrt.Arg(args, 0))
		var opts r2.GetOptions
		o := jsrt.Arg(args, 1)
		cond, err := r.r2Conditional(option(o, "onlyIf"))
		if err != nil {
			return nil, err
		}
		opts.OnlyIf = cond
		switch rng := option(o, "range").(type) {
		case *jsrt.Object:
			if h, ok := rng.Internal.(*webapi.Headers); ok {
				opts.RangeHeader, _ = h.Get("range")
			} else {
				opts.Range = &r2.Range{Offset: int64Option(rng, "offset"), Length: int64Option(rng, "length"), Suffix: int64Option(rng, "suffix")}
			}
		}
		return func(ctx context.Context) (func() (jsrt.Value, error), error) {
			obj, body, err := b.Get(ctx, key, opts)
			if err != nil {
				return nil, err
			}
			return func() (jsrt.Value, error) {
				if obj == nil {
					return jsrt.Null, nil
				}
				return r.r2Object(obj, body), nil
			}, nil
		}, nil
	})
	r.method(obj, "head", func(args []jsrt.Value) (asyncWork, error) {
		key := jsrt.ToString(jsrt.Arg(args, 0))
		return func(ctx context.Context) (func() (jsrt.Value, error), error) {
			obj, err := b.Head(ctx, key)
			if err != nil {
				return nil, err
			}
			return func() (jsrt.Value, error) {
				if obj == nil {
					return jsrt.Null, nil
				}
				return r.r2Object(obj, nil), nil
			}, nil
		}, nil
	})
	r.method(obj, "delete", func(args []jsrt.Value) (asyncWork, error) {
		var keys []string
		if list, ok := jsrt.Arg(args, 0).(*jsrt.Object); ok && list.IsArray() {
			for _, k := range list.Elems() {
				keys = append(keys, jsrt.ToString(k))
			}
		} else {
			keys = []string{jsrt.ToString(jsrt.Arg(args, 0))}
		}
		return func(ctx context.Context) (func() (jsrt.Value, error), error) {
			return done, b.Delete(ctx, keys...)
		}, nil
	})
	r.method(obj, "list", func(args []jsrt.Value) (asyncWork, error) {
		o := jsrt.Arg(args, 0)
		lo := r2.ListOptions{
			Prefix:     stringOption(o, "prefix"),
			Delimiter:  stringOption(o, "delimiter"),
			Cursor:     stringOption(o, "cursor"),
			StartAfter: stringOption(o, "startAfter"),
		}
		if n := option(o, "limit"); !jsrt.IsNullish(n) {
			lo.Limit = int(jsrt.ToNumber(n))
		}
		if inc, ok := option(o, "include").(*jsrt.Object); ok {
			for _, v := range inc.Elems() {
				lo.Include = append(lo.Include, jsrt.ToString(v))
			}
		}
		return func(ctx context.Context) (func() (jsrt.Value, error), error) {
			res, err := b.List(ctx, lo)
			if err != nil {
				return nil, err
			}
			return func() (jsrt.Value, error) {
				objs := make([]jsrt.Value, len(res.Objects))
				for i, ob := range res.Objects {
					objs[i] = r.r2Object(ob, nil)
				}
				prefixes := make([]jsrt.Value, len(res.DelimitedPrefixes))
				for i, p := range res.DelimitedPrefixes {
					prefixes[i] = p
				}
				out := r.RT.NewObject()
				out.Define("objects", r.RT.NewArray(objs...))
				out.Define("delimitedPrefixes", r.RT.NewArray(prefixes...))
				out.Define("truncated", res.Truncated)
				if res.Truncated {
					out.Define("cursor", res.Cursor)
				}
				return out, nil
			}, nil
		}, nil
	})
	return obj
}

func stringOption(o jsrt.Value, key string) string {
	s, _ := option(o, key).(string)
	return s
}

func int64Option(o jsrt.Value, key string) *int64 {
	v := option(o, key)
	if jsrt.IsNullish(v) {
		return nil
	}
	n := int64(jsrt.ToNumber(v))
	return &n
}

func (r Realm) r2PutOptions(o jsrt.Value) (r2.PutOptions, error) {
	var opts r2.PutOptions
	switch hm := option(o, "httpMetadata").(type) {
	case *jsrt.Object:
		get := func(name, header string) string {
			if h, ok := hm.Internal.(*webapi.Headers); ok {
				v, _ := h.Get(header)
				return v
			}
			return stringOption(hm, name)
		}
		opts.HTTPMetadata = r2.HTTPMetadata{
			ContentType:        get("contentType", "content-type"),
			ContentLanguage:    get("contentLanguage", "content-language"),
			ContentDisposition: get("contentDisposition", "content-disposition"),
			ContentEncoding:    get("contentEncoding", "content-encoding"),
			CacheControl:       get("cacheControl", "cache-control"),
		}
	}
	if cm, ok := option(o, "customMetadata").(*jsrt.Object); ok {
		opts.CustomMetadata = map[string]string{}
		for _, k := range cm.Keys() {
			opts.CustomMetadata[k] = jsrt.ToString(cm.MustGet(k))
		}
	}
	if md5, ok := option(o, "md5").(*jsrt.Object); ok {
		opts.MD5 = append([]byte(nil), md5.Bytes()...)
	}
	cond, err := r.r2Conditional(option(o, "onlyIf"))
	opts.OnlyIf = cond
	return opts, err
}

// r2Conditional reads onlyIf given as an R2Conditional object or Headers.
func (r Realm) r2Conditional(v jsrt.Value) (*r2.Conditional, error) {
	o, ok := v.(*jsrt.Object)
	if !ok {
		return nil, nil
	}
	if h, ok := o.Internal.(*webapi.Headers); ok {
		return r2.ParseConditionalHeaders(h.HTTP())
	}
	c := &r2.Conditional{}
	var err error
	if s, ok := o.MustGet("etagMatches").(string); ok {
		if c.ETagMatches, err = r2.ConditionalETag(s); err != nil {
			return nil, err
		}
	}
	if s, ok := o.MustGet("etagDoesNotMatch").(string); ok {
		if c.ETagDoesNotMatch, err = r2.ConditionalETag(s); err != nil {
			return nil, err
		}
	}
	c.UploadedBefore = dateOption(o, "uploadedBefore")
	c.UploadedAfter = dateOption(o, "uploadedAfter")
	return c, nil
}

// r2Object builds an R2Object, or an R2ObjectBody when body is non-nil.
func (r Realm) r2Object(o *r2.Object, body []byte) jsrt.Value {
	if o == nil {
		return jsrt.Null
	}
	out := r.RT.NewObject()
	out.Define("key", o.Key)
	out.Define("version", o.Version)
	out.Define("size", float64(o.Size))
	out.Define("etag", o.ETag)
	out.Define("httpEtag", o.HTTPETag)
	out.Define("storageClass", "Standard")
	date, _ := r.RT.Construct(r.RT.Global.MustGet("Date"), float64(o.Uploaded.UnixMilli()))
	out.Define("uploaded", date)
	fields := httpFields(o.HTTPMetadata)
	hm := r.RT.NewObject()
	for _, f := range fields {
		if f.value != "" {
			hm.Define(f.prop, f.value)
		}
	}
	out.Define("httpMetadata", hm)
	out.Define("customMetadata", r.RT.FromGo(o.CustomMetadata))
	if o.CustomMetadata == nil {
		out.Define("customMetadata", r.RT.NewObject())
	}
	if o.Range != nil {
		rng := r.RT.NewObject()
		if o.Range.Offset != nil {
			rng.Define("offset", float64(*o.Range.Offset))
		}
		if o.Range.Length != nil {
			rng.Define("length", float64(*o.Range.Length))
		}
		out.Define("range", rng)
	}
	r.RT.Method(out, "writeHttpMetadata", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		for _, f := range fields {
			if f.value != "" {
				if _, err := r.RT.CallMethod(jsrt.Arg(args, 0), "set", f.header, f.value); err != nil {
					return nil, err
				}
			}
		}
		return jsrt.Undefined, nil
	})
	if body != nil {
		r.Web.AttachBody(out, body)
	}
	return out
}

type httpField struct{ prop, header, value string }

// httpFields lists R2's HTTP metadata in a fixed order, with the header each
// field is written to.
func httpFields(m r2.HTTPMetadata) []httpField {
	return []httpField{
		{"contentType", "content-type", m.ContentType},
		{"contentLanguage", "content-language", m.ContentLanguage},
		{"contentDisposition", "content-disposition", m.ContentDisposition},
		{"contentEncoding", "content-encoding", m.ContentEncoding},
		{"cacheControl", "cache-control", m.CacheControl},
	}
}

// dateOption reads a Date (or epoch ms) option.
func dateOption(o *jsrt.Object, key string) *time.Time {
	v := o.MustGet(key)
	var ms float64
	switch x := v.(type) {
	case float64:
		ms = x
	case *jsrt.Object:
		ms = jsrt.ToNumber(x.Internal)
	default:
		return nil
	}
	t := time.UnixMilli(int64(ms)).UTC()
	return &t
}
