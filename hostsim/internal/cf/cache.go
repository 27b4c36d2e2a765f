package cf

import (
	"context"

	"github.com/emojisearch/emojisearch/hostsim/internal/cache"
	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
	"github.com/emojisearch/emojisearch/hostsim/internal/webapi"
)

// Caches returns the `caches` global: caches.default and caches.open(name).
func (r Realm) Caches(s *cache.Storage) *jsrt.Object {
	obj := r.RT.NewHostObject(nil, "CacheStorage", s)
	obj.Define("default", r.cacheObject(s.Default()))
	r.method(obj, "open", func(args []jsrt.Value) (asyncWork, error) {
		name := jsrt.ToString(jsrt.Arg(args, 0))
		return func(context.Context) (func() (jsrt.Value, error), error) {
			c, err := s.Named(name)
			if err != nil {
				return nil, err
			}
			return func() (jsrt.Value, error) { return r.cacheObject(c), nil }, nil
		}, nil
	})
	return obj
}

// cacheRequest reads a RequestInfo: a Request or a URL string.
func (r Realm) cacheRequest(v jsrt.Value) (cache.Request, error) {
	if req := webapi.RequestOf(v); req != nil {
		return cache.Request{Method: req.Method, URL: req.URL, Header: req.HeaderList().HTTP()}, nil
	}
	if s, ok := v.(string); ok {
		return cache.Request{Method: "GET", URL: s}, nil
	}
	return cache.Request{}, r.RT.ThrowTypeError("Failed to execute 'match' on 'Cache': parameter 1 is not of type 'Request'.")
}

func matchOptions(o jsrt.Value) cache.MatchOptions {
	return cache.MatchOptions{IgnoreMethod: jsrt.Truthy(option(o, "ignoreMethod"))}
}

func (r Realm) cacheObject(c *cache.Cache) *jsrt.Object {
	obj := r.RT.NewHostObject(nil, "Cache", c)
	r.method(obj, "match", func(args []jsrt.Value) (asyncWork, error) {
		req, err := r.cacheRequest(jsrt.Arg(args, 0))
		if err != nil {
			return nil, err
		}
		opts := matchOptions(jsrt.Arg(args, 1))
		return func(ctx context.Context) (func() (jsrt.Value, error), error) {
			res, found, err := c.Match(ctx, req, opts)
			if err != nil {
				return nil, err
			}
			return func() (jsrt.Value, error) {
				if !found {
					return jsrt.Undefined, nil
				}
				return r.Web.ResponseFromGo(res.Status, res.Header, res.Body), nil
			}, nil
		}, nil
	})
	r.method(obj, "delete", func(args []jsrt.Value) (asyncWork, error) {
		req, err := r.cacheRequest(jsrt.Arg(args, 0))
		if err != nil {
			return nil, err
		}
		opts := matchOptions(jsrt.Arg(args, 1))
		return func(ctx context.Context) (func() (jsrt.Value, error), error) {
			deleted, err := c.Delete(ctx, req, opts)
			if err != nil {
				return nil, err
			}
			return func() (jsrt.Value, error) { return deleted, nil }, nil
		}, nil
	})
	r.RT.Method(obj, "put", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		req, err := r.cacheRequest(jsrt.Arg(args, 0))
		if err != nil {
			return r.RT.Rejected(r.RT.ThrowValue(err)), nil
		}
		res := webapi.ResponseOf(jsrt.Arg(args, 1))
		if res == nil {
			return r.RT.Rejected(r.RT.NewTypeError("Failed to execute 'put' on 'Cache': parameter 2 is not of type 'Response'.")), nil
		}
		p, resolve, reject := r.RT.NewPromise()
		status, header := res.Status, res.HeaderList().HTTP()
		r.Web.ReadAll(res.Body, func(body []byte, err error) {
			if err != nil {
				reject(r.RT.ThrowValue(err))
				return
			}
			r.RT.Await(r.RT.Async(func() (func() (jsrt.Value, error), error) {
				err := c.Put(context.Background(), req, cache.Response{Status: status, Header: header, Body: body})
				if err != nil {
					return nil, r.jsError(err)
				}
				return done, nil
			}), resolve, reject)
		})
		return p, nil
	})
	return obj
}
