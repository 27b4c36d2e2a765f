//go:build js && wasm

// Package fetch calls the Workers fetch API (global fetch, or a Fetcher
// binding such as ASSETS) with Go types, buffering bodies. It stands in for
// net/http's client, which would add megabytes to the module.
package fetch

import (
	"context"
	"net/http"
	"syscall/js"

	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

// Request is an outbound request.
type Request struct {
	Method string
	URL    string
	Header http.Header
	Body   []byte
	// Redirect is "follow" (default), "manual" or "error".
	Redirect string
}

// Response is a buffered answer.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends req through the global fetch, called with no `this`: Go's global
// is syumai's Proxy, which workerd refuses as a receiver.
func Do(ctx context.Context, req Request) (*Response, error) {
	return send(ctx, req, func(url string, init js.Value) (js.Value, error) {
		return jsutil.Invoke(jsutil.Global.Get("fetch"), url, init)
	})
}

// Binding sends req through the Fetcher bound as name (for example ASSETS).
func Binding(ctx context.Context, name string, req Request) (*Response, error) {
	b := jsutil.Env().Get(name)
	if b.IsUndefined() {
		return nil, jsutil.ErrUnbound
	}
	return send(ctx, req, func(url string, init js.Value) (js.Value, error) {
		return jsutil.Call(b, "fetch", url, init)
	})
}

func send(ctx context.Context, req Request, fetch func(url string, init js.Value) (js.Value, error)) (*Response, error) {
	init := jsutil.NewObject()
	if req.Method != "" {
		init.Set("method", req.Method)
	}
	if req.Redirect != "" {
		init.Set("redirect", req.Redirect)
	}
	init.Set("headers", headerPairs(req.Header))
	if req.Body != nil {
		init.Set("body", jsutil.NewBytes(req.Body))
	}
	p, err := fetch(req.URL, init)
	if err != nil {
		return nil, err
	}
	res, err := jsutil.Await(ctx, p)
	if err != nil {
		return nil, err
	}
	return ResponseFromJS(ctx, res)
}

// ResponseFromJS reads a JS Response whole.
func ResponseFromJS(ctx context.Context, res js.Value) (*Response, error) {
	buf, err := jsutil.CallAwait(ctx, res, "arrayBuffer")
	if err != nil {
		return nil, err
	}
	out := &Response{Status: res.Get("status").Int(), Header: http.Header{}, Body: jsutil.Bytes(buf)}
	for _, p := range jsutil.Pairs(jsutil.Array.Call("from", res.Get("headers"))) {
		out.Header.Add(p[0], p[1])
	}
	return out, nil
}

// headerPairs flattens a header into [[name, value], ...].
func headerPairs(h http.Header) js.Value {
	var pairs [][2]string
	for k, vs := range h {
		for _, v := range vs {
			pairs = append(pairs, [2]string{k, v})
		}
	}
	return jsutil.NewPairs(pairs)
}

// NewJSResponse builds a JS Response (for the Cache API).
func NewJSResponse(r *Response) js.Value {
	init := jsutil.NewObject()
	init.Set("status", r.Status)
	init.Set("headers", headerPairs(r.Header))
	var body any = js.Null()
	if r.Body != nil {
		body = jsutil.NewBytes(r.Body)
	}
	return jsutil.Global.Get("Response").New(body, init)
}

// NewJSRequest builds a JS Request without a body (for the Cache API).
func NewJSRequest(method, url string, header http.Header) js.Value {
	init := jsutil.NewObject()
	init.Set("method", method)
	init.Set("headers", headerPairs(header))
	return jsutil.Global.Get("Request").New(url, init)
}
