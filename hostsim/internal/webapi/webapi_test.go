package webapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt/jsrttest"
	"github.com/emojisearch/emojisearch/hostsim/internal/webapi"
)

type env struct {
	rt  *jsrt.Runtime
	web *webapi.Web
}

func newEnv(t *testing.T) env {
	t.Helper()
	rt := jsrt.New()
	web := webapi.Install(rt)
	go rt.Run(context.Background())
	t.Cleanup(rt.Close)
	return env{rt, web}
}

// do runs fn on the loop and waits.
func (e env) do(fn func()) {
	done := make(chan struct{})
	e.rt.Post(func() { fn(); close(done) })
	<-done
}

// await settles a promise made on the loop.
func (e env) await(t *testing.T, start func() jsrt.Value) (jsrt.Value, jsrt.Value) {
	t.Helper()
	return jsrttest.Settle(t, e.rt, start)
}

func (e env) construct(t *testing.T, class string, args ...jsrt.Value) jsrt.Value {
	t.Helper()
	v, err := e.rt.Construct(e.rt.Global.MustGet(class), args...)
	require.NoError(t, err)
	return v
}

func TestHeaders(t *testing.T) {
	e := newEnv(t)
	e.do(func() {
		init := e.rt.NewArray(e.rt.NewArray("Content-Type", "text/plain"), e.rt.NewArray("Set-Cookie", "a=1"), e.rt.NewArray("set-cookie", "b=2"), e.rt.NewArray("X-A", "1"), e.rt.NewArray("x-a", "2"))
		h := e.construct(t, "Headers", init)
		get := func(name string) jsrt.Value {
			v, err := e.rt.CallMethod(h, "get", name)
			require.NoError(t, err)
			return v
		}
		assert.Equal(t, "text/plain", get("content-type"), "names are case-insensitive")
		assert.Equal(t, "1, 2", get("X-A"), "values of one name are joined")
		assert.Equal(t, jsrt.Null, get("missing"))
		pairs, err := e.rt.Iterate(h)
		require.NoError(t, err)
		var flat []string
		for _, p := range pairs {
			el := p.(*jsrt.Object).Elems()
			flat = append(flat, el[0].(string)+"="+el[1].(string))
		}
		assert.Equal(t, []string{"content-type=text/plain", "set-cookie=a=1", "set-cookie=b=2", "x-a=1, 2"}, flat, "sorted, set-cookie kept apart")
	})
}

func TestResponseBodyReadOnce(t *testing.T) {
	e := newEnv(t)
	var res jsrt.Value
	e.do(func() {
		init := e.rt.NewObject()
		init.Define("status", 201.0)
		res = e.construct(t, "Response", `{"a":1}`, init)
	})
	v, rejected := e.await(t, func() jsrt.Value { p, _ := e.rt.CallMethod(res, "json"); return p })
	require.Nil(t, rejected)
	assert.Equal(t, 1.0, v.(*jsrt.Object).MustGet("a"))
	_, rejected = e.await(t, func() jsrt.Value { p, _ := e.rt.CallMethod(res, "text"); return p })
	require.NotNil(t, rejected, "a body reads once")
	e.do(func() {
		assert.Equal(t, 201.0, res.(*jsrt.Object).MustGet("status"))
		assert.Equal(t, true, res.(*jsrt.Object).MustGet("bodyUsed"))
		_, err := e.rt.Construct(e.rt.Global.MustGet("Response"), "x", func() jsrt.Value {
			o := e.rt.NewObject()
			o.Define("status", 99.0)
			return o
		}())
		assert.Error(t, err, "status out of range")
	})
}

func TestReadableStreamWithPull(t *testing.T) {
	e := newEnv(t)
	var res jsrt.Value
	e.do(func() {
		n := 0
		src := e.rt.NewObject()
		e.rt.Method(src, "pull", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
			n++
			if n > 3 {
				return e.rt.CallMethod(args[0], "close")
			}
			return e.rt.CallMethod(args[0], "enqueue", e.rt.NewBytes([]byte{byte('0' + n)}))
		})
		stream := e.construct(t, "ReadableStream", src)
		res = e.construct(t, "Response", stream)
	})
	v, rejected := e.await(t, func() jsrt.Value { p, _ := e.rt.CallMethod(res, "text"); return p })
	require.Nil(t, rejected)
	assert.Equal(t, "123", v)
}

func TestRequestRules(t *testing.T) {
	e := newEnv(t)
	e.do(func() {
		init := e.rt.NewObject()
		init.Define("method", "get")
		init.Define("body", "x")
		_, err := e.rt.Construct(e.rt.Global.MustGet("Request"), "https://a.example/", init)
		assert.Error(t, err, "GET with a body")
		_, err = e.rt.Construct(e.rt.Global.MustGet("Request"), "/relative")
		assert.Error(t, err, "relative URL")
		r := e.construct(t, "Request", "https://a.example/p?q=1")
		assert.Equal(t, "GET", r.(*jsrt.Object).MustGet("method"))
		assert.Equal(t, "https://a.example/p?q=1", r.(*jsrt.Object).MustGet("url"))
	})
}

func TestFetchIsRealHTTP(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/moved" {
			http.Redirect(w, r, "/here", http.StatusFound)
			return
		}
		w.Header().Set("X-Method", r.Method)
		_, _ = w.Write([]byte("at " + r.URL.Path))
	}))
	defer srv.Close()
	e := newEnv(t)
	fetch := func(url, redirect string) jsrt.Value {
		v, rejected := e.await(t, func() jsrt.Value {
			init := e.rt.NewObject()
			if redirect != "" {
				init.Define("redirect", redirect)
			}
			p, err := e.rt.Call(e.rt.Global.MustGet("fetch"), jsrt.Undefined, url, init)
			require.NoError(t, err)
			return p
		})
		require.Nil(t, rejected)
		return v
	}
	res := fetch(srv.URL+"/moved", "")
	text, _ := e.await(t, func() jsrt.Value { p, _ := e.rt.CallMethod(res, "text"); return p })
	assert.Equal(t, "at /here", text)
	e.do(func() { assert.Equal(t, true, res.(*jsrt.Object).MustGet("redirected")) })

	manual := fetch(srv.URL+"/moved", "manual")
	e.do(func() { assert.Equal(t, 302.0, manual.(*jsrt.Object).MustGet("status")) })

	e.do(func() {
		_, err := e.rt.Call(e.rt.Global.MustGet("fetch"), e.rt.NewObject(), srv.URL)
		assert.ErrorContains(t, err, "Illegal invocation", "fetch refuses a foreign this, as in workerd")
	})
}

func TestTextCoding(t *testing.T) {
	e := newEnv(t)
	e.do(func() {
		enc := e.construct(t, "TextEncoder")
		b, err := e.rt.CallMethod(enc, "encode", "héllo")
		require.NoError(t, err)
		assert.Equal(t, []byte("héllo"), b.(*jsrt.Object).Bytes())
		dec := e.construct(t, "TextDecoder")
		s, err := e.rt.CallMethod(dec, "decode", e.rt.NewBytes([]byte{'a', 0xff, 'b'}))
		require.NoError(t, err)
		assert.Equal(t, "a\uFFFDb", s)
	})
}
