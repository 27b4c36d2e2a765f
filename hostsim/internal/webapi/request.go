package webapi

import (
	"net/url"
	"strings"

	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
)

// Request is the Go state of a JS Request.
type Request struct {
	Method   string
	URL      string
	Headers  *jsrt.Object // a JS Headers object
	Body     *Body
	Redirect string
}

// HeaderList returns the request's headers.
func (r *Request) HeaderList() *Headers { return r.Headers.Internal.(*Headers) }

func (w *Web) installRequest() {
	rt := w.rt
	w.requestProto = rt.NewHostObject(nil, "Request", nil)
	self := func(this jsrt.Value) (*Request, error) {
		if o, ok := this.(*jsrt.Object); ok {
			if r, ok := o.Internal.(*Request); ok {
				return r, nil
			}
		}
		return nil, rt.ThrowTypeError("Illegal invocation")
	}
	w.requestCtor = rt.NewClass("Request", w.requestProto, func(args []jsrt.Value) (jsrt.Value, error) {
		r, err := w.requestFrom(jsrt.Arg(args, 0), jsrt.Arg(args, 1))
		if err != nil {
			return nil, err
		}
		return w.NewRequest(r), nil
	})
	getter := func(name string, get func(r *Request) jsrt.Value) {
		w.requestProto.Define(name, &jsrt.Accessor{Get: func(this jsrt.Value) (jsrt.Value, error) {
			r, err := self(this)
			if err != nil {
				return nil, err
			}
			return get(r), nil
		}})
	}
	getter("method", func(r *Request) jsrt.Value { return r.Method })
	getter("url", func(r *Request) jsrt.Value { return r.URL })
	getter("headers", func(r *Request) jsrt.Value { return r.Headers })
	getter("redirect", func(r *Request) jsrt.Value { return r.Redirect })
	w.bodyMethods(w.requestProto, func(this jsrt.Value) (*Body, error) {
		r, err := self(this)
		if err != nil {
			return nil, err
		}
		return r.Body, nil
	})
	rt.Method(w.requestProto, "clone", func(this jsrt.Value, _ []jsrt.Value) (jsrt.Value, error) {
		r, err := self(this)
		if err != nil {
			return nil, err
		}
		h, _ := w.headersFrom(r.Headers)
		c := *r
		c.Headers = w.NewHeaders(h)
		b := *r.Body
		c.Body = &b
		return w.NewRequest(&c), nil
	})
	rt.Global.Define("Request", w.requestCtor)
}

// NewRequest wraps r as a JS Request.
func (w *Web) NewRequest(r *Request) *jsrt.Object {
	if r.Headers == nil {
		r.Headers = w.NewHeaders(&Headers{})
	}
	if r.Body == nil {
		r.Body = &Body{null: true}
	}
	if r.Redirect == "" {
		r.Redirect = "follow"
	}
	return w.rt.NewHostObject(w.requestProto, "Request", r)
}

// RequestOf returns the Go state of a JS Request, or nil.
func RequestOf(v jsrt.Value) *Request {
	if o, ok := v.(*jsrt.Object); ok {
		if r, ok := o.Internal.(*Request); ok {
			return r
		}
	}
	return nil
}

// requestFrom implements `new Request(input, init)` and fetch's arguments.
func (w *Web) requestFrom(input, init jsrt.Value) (*Request, error) {
	r := &Request{Method: "GET", Redirect: "follow"}
	var hdrs *Headers
	if src := RequestOf(input); src != nil {
		r.Method, r.URL, r.Redirect = src.Method, src.URL, src.Redirect
		hdrs, _ = w.headersFrom(src.Headers)
		b := *src.Body
		r.Body = &b
	} else {
		u, err := url.Parse(jsrt.ToString(input))
		if err != nil || !u.IsAbs() {
			return nil, w.rt.ThrowTypeError("Invalid URL: %s", jsrt.ToString(input))
		}
		r.URL = u.String()
		hdrs = &Headers{}
	}
	if o, ok := init.(*jsrt.Object); ok {
		if m := o.MustGet("method"); !jsrt.IsUndefined(m) {
			r.Method = strings.ToUpper(jsrt.ToString(m))
		}
		if h := o.MustGet("headers"); !jsrt.IsUndefined(h) {
			var err error
			if hdrs, err = w.headersFrom(h); err != nil {
				return nil, err
			}
		}
		if b := o.MustGet("body"); !jsrt.IsUndefined(b) {
			body, err := w.bodyFrom(b)
			if err != nil {
				return nil, err
			}
			r.Body = body
		}
		if rd := o.MustGet("redirect"); !jsrt.IsUndefined(rd) {
			r.Redirect = jsrt.ToString(rd)
		}
	}
	if r.Body == nil {
		r.Body = &Body{null: true}
	}
	if (r.Method == "GET" || r.Method == "HEAD") && !r.Body.null {
		return nil, w.rt.ThrowTypeError("Request with a GET or HEAD method cannot have a body.")
	}
	r.Headers = w.NewHeaders(hdrs)
	return r, nil
}
