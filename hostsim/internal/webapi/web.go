package webapi

import (
	"net/http"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
)

// Web holds the classes installed into one realm.
type Web struct {
	rt                          *jsrt.Runtime
	headersProto, headersCtor   *jsrt.Object
	streamProto, streamCtor     *jsrt.Object
	requestProto, requestCtor   *jsrt.Object
	responseProto, responseCtor *jsrt.Object
	client                      *http.Client
}

// Config configures InstallWithConfig. It is an immutable value: start
// from NewConfig; every With… returns a changed copy.
type Config struct{ client *http.Client }

// NewConfig is the default: a zero http.Client behind fetch.
func NewConfig() Config { return Config{client: &http.Client{}} }

// WithHTTPClient sets the client behind global fetch (outbound requests go
// over real HTTP; nil: a zero http.Client).
func (c Config) WithHTTPClient(client *http.Client) Config { c.client = client; return c }

// Install adds the web classes and fetch to rt's global object, with
// NewConfig.
func Install(rt *jsrt.Runtime) *Web { return InstallWithConfig(rt, NewConfig()) }

// InstallWithConfig is Install with a Config.
func InstallWithConfig(rt *jsrt.Runtime, cfg Config) *Web {
	w := &Web{rt: rt, client: cfg.client}
	if w.client == nil {
		w.client = &http.Client{}
	}
	w.installHeaders()
	w.installStreams()
	w.installRequest()
	w.installResponse()
	w.installText()
	w.installFetch()
	return w
}

func (w *Web) installText() {
	rt := w.rt
	encProto := rt.NewHostObject(nil, "TextEncoder", nil)
	rt.Method(encProto, "encode", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		s := ""
		if !jsrt.IsUndefined(jsrt.Arg(args, 0)) {
			s = jsrt.ToString(args[0])
		}
		return rt.NewBytes([]byte(s)), nil
	})
	encProto.Define("encoding", "utf-8")
	rt.Global.Define("TextEncoder", rt.NewClass("TextEncoder", encProto, func([]jsrt.Value) (jsrt.Value, error) {
		return rt.NewHostObject(encProto, "TextEncoder", nil), nil
	}))
	decProto := rt.NewHostObject(nil, "TextDecoder", nil)
	rt.Method(decProto, "decode", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		o, ok := jsrt.Arg(args, 0).(*jsrt.Object)
		if !ok {
			return "", nil
		}
		b := o.Bytes()
		if utf8.Valid(b) {
			return string(b), nil
		}
		out := make([]rune, 0, len(b))
		for len(b) > 0 {
			r, n := utf8.DecodeRune(b)
			out = append(out, r)
			b = b[n:]
		}
		return string(out), nil
	})
	decProto.Define("encoding", "utf-8")
	rt.Global.Define("TextDecoder", rt.NewClass("TextDecoder", decProto, func([]jsrt.Value) (jsrt.Value, error) {
		return rt.NewHostObject(decProto, "TextDecoder", nil), nil
	}))
}
