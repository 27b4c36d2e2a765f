package webapi

import (
	"net/http"

	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
)

// Response is the Go state of a JS Response.
type Response struct {
	Status     int
	StatusText string
	Headers    *jsrt.Object
	Body       *Body
	URL        string
	Redirected bool
}

// HeaderList returns the response's headers.
func (r *Response) HeaderList() *Headers { return r.Headers.Internal.(*Headers) }

// ResponseOf returns the Go state of a JS Response, or nil.
func ResponseOf(v jsrt.Value) *Response {
	if o, ok := v.(*jsrt.Object); ok {
		if r, ok := o.Internal.(*Response); ok {
			return r
		}
	}
	return nil
}

func (w *Web) installResponse() {
	rt := w.rt
	w.responseProto = rt.NewHostObject(nil, "Response", nil)
	self := func(this jsrt.Value) (*Response, error) {
		if r := ResponseOf(this); r != nil {
			return r, nil
		}
		return nil, rt.ThrowTypeError("Illegal invocation")
	}
	w.responseCtor = rt.NewClass("Response", w.responseProto, func(args []jsrt.Value) (jsrt.Value, error) {
		body, err := w.bodyFrom(jsrt.Arg(args, 0))
		if err != nil {
			return nil, err
		}
		r := &Response{Status: 200, Body: body}
		hdrs := &Headers{}
		if init, ok := jsrt.Arg(args, 1).(*jsrt.Object); ok {
			if s := init.MustGet("status"); !jsrt.IsUndefined(s) {
				r.Status = int(jsrt.ToNumber(s))
			}
			if st := init.MustGet("statusText"); !jsrt.IsUndefined(st) {
				r.StatusText = jsrt.ToString(st)
			}
			if h := init.MustGet("headers"); !jsrt.IsUndefined(h) {
				if hdrs, err = w.headersFrom(h); err != nil {
					return nil, err
				}
			}
		}
		if r.Status < 200 || r.Status > 599 {
			return nil, &jsrt.Throw{Value: w.rangeError("Responses may only be constructed with status codes in the range 200 to 599, inclusive.")}
		}
		if s, ok := jsrt.Arg(args, 0).(string); ok && s != "" {
			if _, has := hdrs.Get("content-type"); !has {
				hdrs.Set("content-type", "text/plain;charset=UTF-8")
			}
		}
		r.Headers = w.NewHeaders(hdrs)
		return w.NewResponse(r), nil
	})
	getter := func(name string, get func(r *Response) jsrt.Value) {
		w.responseProto.Define(name, &jsrt.Accessor{Get: func(this jsrt.Value) (jsrt.Value, error) {
			r, err := self(this)
			if err != nil {
				return nil, err
			}
			return get(r), nil
		}})
	}
	getter("status", func(r *Response) jsrt.Value { return float64(r.Status) })
	getter("ok", func(r *Response) jsrt.Value { return r.Status >= 200 && r.Status < 300 })
	getter("statusText", func(r *Response) jsrt.Value { return r.StatusText })
	getter("headers", func(r *Response) jsrt.Value { return r.Headers })
	getter("url", func(r *Response) jsrt.Value { return r.URL })
	getter("redirected", func(r *Response) jsrt.Value { return r.Redirected })
	w.bodyMethods(w.responseProto, func(this jsrt.Value) (*Body, error) {
		r, err := self(this)
		if err != nil {
			return nil, err
		}
		return r.Body, nil
	})
	rt.Method(w.responseProto, "clone", func(this jsrt.Value, _ []jsrt.Value) (jsrt.Value, error) {
		r, err := self(this)
		if err != nil {
			return nil, err
		}
		if r.Body.used {
			return nil, rt.ThrowTypeError("Response body is already used")
		}
		h, _ := w.headersFrom(r.Headers)
		c := *r
		c.Headers = w.NewHeaders(h)
		b := *r.Body
		c.Body = &b
		return w.NewResponse(&c), nil
	})
	rt.Method(w.responseCtor, "json", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		s, err := jsrt.StringifyJSON(jsrt.Arg(args, 0))
		if err != nil {
			return nil, rt.ThrowTypeError("%v", err)
		}
		hdrs := &Headers{}
		hdrs.Set("content-type", "application/json")
		return w.NewResponse(&Response{Status: 200, Headers: w.NewHeaders(hdrs), Body: &Body{bytes: []byte(s)}}), nil
	})
	rt.Global.Define("Response", w.responseCtor)
}

func (w *Web) rangeError(msg string) jsrt.Value {
	v, _ := w.rt.Construct(w.rt.Global.MustGet("RangeError"), msg)
	return v
}

// NewResponse wraps r as a JS Response.
func (w *Web) NewResponse(r *Response) *jsrt.Object {
	if r.Headers == nil {
		r.Headers = w.NewHeaders(&Headers{})
	}
	if r.Body == nil {
		r.Body = &Body{null: true}
	}
	if r.StatusText == "" {
		r.StatusText = http.StatusText(r.Status)
	}
	return w.rt.NewHostObject(w.responseProto, "Response", r)
}

// ResponseFromGo builds a JS Response from Go parts.
func (w *Web) ResponseFromGo(status int, header http.Header, body []byte) *jsrt.Object {
	b := &Body{bytes: body}
	if body == nil {
		b.null = true
	}
	return w.NewResponse(&Response{Status: status, Headers: w.NewHeaders(HeadersFromHTTP(header)), Body: b})
}

// RequestFromGo builds a JS Request from Go parts.
func (w *Web) RequestFromGo(method, url string, header http.Header, body []byte) *jsrt.Object {
	b := &Body{bytes: body}
	if body == nil {
		b.null = true
	}
	return w.NewRequest(&Request{Method: method, URL: url, Headers: w.NewHeaders(HeadersFromHTTP(header)), Body: b})
}
