//go:build js && wasm

// Package jsbridge is the Go half of the protocol between the JS entry
// (worker/entry/worker.mjs) and one long-lived Go instance; the protocol is
// written down in worker/entry/PROTOCOL.md. It turns each call into an
// http.Request served by an http.Handler on its own goroutine, and reports
// when the request's background work (waitUntil) is done.
package jsbridge

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/syumai/workers"

	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

// ScheduledFunc handles a cron trigger.
type ScheduledFunc func(ctx context.Context, cron string, at time.Time) error

// Serve registers the protocol's entry points, signals readiness to the JS
// entry (syumai's `workers.ready` import) and blocks forever: the instance
// lives as long as the isolate.
func Serve(h http.Handler, scheduled ScheduledFunc) {
	b := jsutil.Binding()
	b.Set("fetch", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 3 {
			return nil
		}
		go serveFetch(h, args[0], args[1], args[2])
		return nil
	}))
	b.Set("scheduled", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 2 {
			return nil
		}
		go serveScheduled(scheduled, args[0], args[1])
		return nil
	}))
	b.Set("protocol", 1)
	workers.Ready()
	select {}
}

// Background tracks one request's waitUntil work.
type Background struct {
	wg sync.WaitGroup
}

type backgroundKey struct{}

// WaitUntil runs fn after (or while) the response is sent; the JS entry
// keeps the request alive until every such fn has returned. Outside a
// request it runs fn synchronously.
func WaitUntil(ctx context.Context, fn func(context.Context)) {
	bg, _ := ctx.Value(backgroundKey{}).(*Background)
	if bg == nil {
		fn(ctx)
		return
	}
	bg.wg.Add(1)
	go func() {
		defer bg.wg.Done()
		defer func() {
			if r := recover(); r != nil {
				fmt.Printf("waitUntil task panicked: %v\n%s", r, debug.Stack())
			}
		}()
		fn(context.WithoutCancel(ctx))
	}()
}

func serveFetch(h http.Handler, reqObj, respond, settle js.Value) {
	bg := &Background{}
	ctx := context.WithValue(context.Background(), backgroundKey{}, bg)
	status, header, body := handle(ctx, h, reqObj)
	res := jsutil.NewObject()
	res.Set("status", status)
	pairs := make([][2]string, 0, len(header))
	for k, vs := range header {
		for _, v := range vs {
			pairs = append(pairs, [2]string{k, v})
		}
	}
	res.Set("headers", jsutil.NewPairs(pairs))
	if body != nil {
		res.Set("body", jsutil.NewBytes(body))
	} else {
		res.Set("body", js.Null())
	}
	respond.Invoke(js.Null(), res)
	bg.wg.Wait()
	settle.Invoke()
}

// handle runs the handler, turning a panic into the spec's 500 answer so
// one bad request never takes the instance (and its neighbours) down.
func handle(ctx context.Context, h http.Handler, reqObj js.Value) (status int, header http.Header, body []byte) {
	w := &recorder{header: http.Header{}}
	defer func() {
		if r := recover(); r != nil {
			fmt.Printf("handler panicked: %v\n%s", r, debug.Stack())
			status = http.StatusInternalServerError
			header = http.Header{
				"Content-Type":                {"application/json; charset=utf-8"},
				"Cache-Control":               {"no-store"},
				"X-Content-Type-Options":      {"nosniff"},
				"Access-Control-Allow-Origin": {"*"},
			}
			body = []byte(`{"error":"internal error"}`)
		}
	}()
	req, err := toRequest(ctx, reqObj)
	if err != nil {
		return http.StatusBadRequest, http.Header{"Content-Type": {"application/json; charset=utf-8"}},
			[]byte(`{"error":"malformed request"}`)
	}
	h.ServeHTTP(w, req)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if req.Method == http.MethodHead || w.status == http.StatusNoContent || w.status == http.StatusNotModified {
		return w.status, w.header, nil
	}
	return w.status, w.header, w.body.Bytes()
}

func toRequest(ctx context.Context, o js.Value) (*http.Request, error) {
	u, err := url.Parse(jsutil.String(o.Get("url")))
	if err != nil {
		return nil, err
	}
	var body []byte
	if b := o.Get("body"); !b.IsNull() && !b.IsUndefined() {
		body = jsutil.Bytes(b)
	}
	req, err := http.NewRequestWithContext(ctx, jsutil.String(o.Get("method")), u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for _, p := range jsutil.Pairs(o.Get("headers")) {
		req.Header.Add(p[0], p[1])
	}
	req.Host = u.Host
	req.ContentLength = int64(len(body))
	req.RemoteAddr = req.Header.Get("Cf-Connecting-Ip")
	req.RequestURI = u.RequestURI()
	return req, nil
}

func serveScheduled(fn ScheduledFunc, ev, done js.Value) {
	bg := &Background{}
	ctx := context.WithValue(context.Background(), backgroundKey{}, bg)
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("scheduled handler panicked: %v", r)
			}
		}()
		at := time.UnixMilli(int64(ev.Get("scheduledTime").Float()))
		return fn(ctx, jsutil.String(ev.Get("cron")), at)
	}()
	bg.wg.Wait()
	if err != nil {
		done.Invoke(strings.TrimSpace(err.Error()))
		return
	}
	done.Invoke(js.Null())
}

// recorder buffers a response: the protocol is buffered both ways.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(b)
}
