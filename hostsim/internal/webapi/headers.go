// Package webapi installs the web platform classes a Worker touches into a
// jsrt realm: Headers, Request, Response, ReadableStream, TextEncoder,
// TextDecoder and fetch. Bodies are buffered in Go: hostsim's entry protocol
// is buffered both ways, and bindings hand over whole values.
package webapi

import (
	"net/http"
	"sort"
	"strings"

	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
)

// Headers is the Go state of a JS Headers object: ordered, case-insensitive.
type Headers struct {
	list [][2]string // names lower-cased
}

// Iterate yields [name, value] pairs sorted by name with duplicates joined by
// ", " (except set-cookie), as the Fetch standard's iterator does.
func (h *Headers) Iterate(rt *jsrt.Runtime) ([]jsrt.Value, error) {
	var out []jsrt.Value
	for _, p := range h.sorted() {
		out = append(out, rt.NewArray(p[0], p[1]))
	}
	return out, nil
}

func (h *Headers) sorted() [][2]string {
	names := map[string]bool{}
	for _, p := range h.list {
		names[p[0]] = true
	}
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out [][2]string
	for _, k := range keys {
		if k == "set-cookie" {
			for _, p := range h.list {
				if p[0] == k {
					out = append(out, p)
				}
			}
			continue
		}
		v, _ := h.Get(k)
		out = append(out, [2]string{k, v})
	}
	return out
}

// Get returns the combined value of name.
func (h *Headers) Get(name string) (string, bool) {
	name = strings.ToLower(name)
	var vals []string
	for _, p := range h.list {
		if p[0] == name {
			vals = append(vals, p[1])
		}
	}
	if vals == nil {
		return "", false
	}
	return strings.Join(vals, ", "), true
}

// Set replaces name's values.
func (h *Headers) Set(name, value string) {
	h.Delete(name)
	h.Append(name, value)
}

// Append adds a value.
func (h *Headers) Append(name, value string) {
	h.list = append(h.list, [2]string{strings.ToLower(name), strings.TrimSpace(value)})
}

// Delete removes name.
func (h *Headers) Delete(name string) {
	name = strings.ToLower(name)
	kept := h.list[:0]
	for _, p := range h.list {
		if p[0] != name {
			kept = append(kept, p)
		}
	}
	h.list = kept
}

// HTTP converts to a net/http header.
func (h *Headers) HTTP() http.Header {
	out := http.Header{}
	for _, p := range h.list {
		out.Add(p[0], p[1])
	}
	return out
}

// HeadersFromHTTP copies a net/http header.
func HeadersFromHTTP(hdr http.Header) *Headers {
	h := &Headers{}
	keys := make([]string, 0, len(hdr))
	for k := range hdr {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range hdr[k] {
			h.Append(k, v)
		}
	}
	return h
}

func (w *Web) installHeaders() {
	rt := w.rt
	w.headersProto = rt.NewHostObject(nil, "Headers", nil)
	w.headersCtor = rt.NewClass("Headers", w.headersProto, func(args []jsrt.Value) (jsrt.Value, error) {
		h, err := w.headersFrom(jsrt.Arg(args, 0))
		if err != nil {
			return nil, err
		}
		return w.NewHeaders(h), nil
	})
	self := func(this jsrt.Value) (*Headers, error) {
		if o, ok := this.(*jsrt.Object); ok {
			if h, ok := o.Internal.(*Headers); ok {
				return h, nil
			}
		}
		return nil, rt.ThrowTypeError("Illegal invocation")
	}
	method := func(name string, fn func(h *Headers, args []jsrt.Value) (jsrt.Value, error)) {
		rt.Method(w.headersProto, name, func(this jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
			h, err := self(this)
			if err != nil {
				return nil, err
			}
			return fn(h, args)
		})
	}
	method("get", func(h *Headers, args []jsrt.Value) (jsrt.Value, error) {
		if v, ok := h.Get(jsrt.ToString(jsrt.Arg(args, 0))); ok {
			return v, nil
		}
		return jsrt.Null, nil
	})
	method("has", func(h *Headers, args []jsrt.Value) (jsrt.Value, error) {
		_, ok := h.Get(jsrt.ToString(jsrt.Arg(args, 0)))
		return ok, nil
	})
	method("set", func(h *Headers, args []jsrt.Value) (jsrt.Value, error) {
		h.Set(jsrt.ToString(jsrt.Arg(args, 0)), jsrt.ToString(jsrt.Arg(args, 1)))
		return jsrt.Undefined, nil
	})
	method("append", func(h *Headers, args []jsrt.Value) (jsrt.Value, error) {
		h.Append(jsrt.ToString(jsrt.Arg(args, 0)), jsrt.ToString(jsrt.Arg(args, 1)))
		return jsrt.Undefined, nil
	})
	method("delete", func(h *Headers, args []jsrt.Value) (jsrt.Value, error) {
		h.Delete(jsrt.ToString(jsrt.Arg(args, 0)))
		return jsrt.Undefined, nil
	})
	method("entries", func(h *Headers, _ []jsrt.Value) (jsrt.Value, error) {
		pairs, _ := h.Iterate(rt)
		return w.iterator(pairs), nil
	})
	method("getSetCookie", func(h *Headers, _ []jsrt.Value) (jsrt.Value, error) {
		var out []jsrt.Value
		for _, p := range h.list {
			if p[0] == "set-cookie" {
				out = append(out, p[1])
			}
		}
		return rt.NewArray(out...), nil
	})
	method("forEach", func(h *Headers, args []jsrt.Value) (jsrt.Value, error) {
		for _, p := range h.sorted() {
			if _, err := rt.Call(jsrt.Arg(args, 0), jsrt.Undefined, p[1], p[0]); err != nil {
				return nil, err
			}
		}
		return jsrt.Undefined, nil
	})
	rt.Global.Define("Headers", w.headersCtor)
}

// NewHeaders wraps h as a JS Headers object.
func (w *Web) NewHeaders(h *Headers) *jsrt.Object {
	return w.rt.NewHostObject(w.headersProto, "Headers", h)
}

// headersFrom accepts what `new Headers(init)` accepts: another Headers, a
// list of pairs, or a record.
func (w *Web) headersFrom(init jsrt.Value) (*Headers, error) {
	h := &Headers{}
	o, ok := init.(*jsrt.Object)
	if !ok {
		return h, nil
	}
	if src, ok := o.Internal.(*Headers); ok {
		h.list = append(h.list, src.list...)
		return h, nil
	}
	if o.IsArray() {
		for _, e := range o.Elems() {
			pair, ok := e.(*jsrt.Object)
			if !ok || len(pair.Elems()) != 2 {
				return nil, w.rt.ThrowTypeError("Headers init pairs must have two items")
			}
			h.Append(jsrt.ToString(pair.Elems()[0]), jsrt.ToString(pair.Elems()[1]))
		}
		return h, nil
	}
	for _, k := range o.Keys() {
		h.Append(k, jsrt.ToString(o.MustGet(k)))
	}
	return h, nil
}

// iterator returns an object with next() and array-likeness enough for
// Array.from and spread over Go-produced lists.
func (w *Web) iterator(vals []jsrt.Value) *jsrt.Object {
	it := w.rt.NewHostObject(nil, "Iterator", listIterable(vals))
	i := 0
	w.rt.Method(it, "next", func(jsrt.Value, []jsrt.Value) (jsrt.Value, error) {
		res := w.rt.NewObject()
		if i >= len(vals) {
			res.Define("done", true)
			res.Define("value", jsrt.Undefined)
			return res, nil
		}
		res.Define("done", false)
		res.Define("value", vals[i])
		i++
		return res, nil
	})
	return it
}

type listIterable []jsrt.Value

func (l listIterable) Iterate(*jsrt.Runtime) ([]jsrt.Value, error) { return l, nil }
