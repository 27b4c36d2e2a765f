//go:build js && wasm && diag

package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/emojisearch/emojisearch/service/app"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/worker/internal/cf/fetch"
	"github.com/emojisearch/emojisearch/worker/internal/cf/kv"
	"github.com/emojisearch/emojisearch/worker/internal/jsbridge"
	"github.com/emojisearch/emojisearch/worker/internal/jsutil"
)

// diagnose adds the diagnostics surface, which exists only in the test
// build (tag diag): e2e tests drive every binding through it over HTTP, in
// hostsim and in workerd, instead of reaching around the module. Its fault
// injection wraps the platform: files that fail to load, a moved clock.
func diagnose(p *app.Platform) {
	d := &diag{started: time.Now()}
	f := &faults{}
	p.Assets = f.assets(p.Assets)
	p.Clock = f.clock(p.Clock)
	p.Routes = append(p.Routes, d.routes, f.routes, d1Routes, storeRoutes)
}

type diag struct {
	started  time.Time
	requests atomic.Int64
}

func (d *diag) routes(r *httpx.Router) {
	r.HandleFunc(http.MethodGet, "/__diag/instance", d.instance)
	r.HandleFunc(http.MethodGet, "/__diag/panic", func(http.ResponseWriter, *http.Request) { panic("diag: requested panic") })
	r.HandleFunc(http.MethodPost, "/__diag/exit", d.exit)
	r.HandleFunc(http.MethodPost, "/__diag/wait", d.wait)
	r.HandleFunc(http.MethodGet, "/__diag/kv/:key", d.kvGet)
	r.HandleFunc(http.MethodPut, "/__diag/kv/:key", d.kvPut)
	r.HandleFunc(http.MethodDelete, "/__diag/kv/:key", d.kvDelete)
	r.HandleFunc(http.MethodGet, "/__diag/kv", d.kvList)
	r.HandleFunc(http.MethodGet, "/__diag/fetch", d.fetch)
	r.HandleFunc(http.MethodGet, "/__diag/assets/*path", d.assets)
}

func fail(w http.ResponseWriter, err error) {
	httpx.Error(w, http.StatusInternalServerError, err.Error())
}

// instance proves reuse: the count keeps rising while one instance serves.
func (d *diag) instance(w http.ResponseWriter, _ *http.Request) {
	httpx.JSON(w, http.StatusOK, map[string]any{"requests": d.requests.Add(1), "startedAt": d.started.UnixMilli()})
}

// exit kills the Go program from a background goroutine, the way an
// unrecovered panic outside a handler does.
func (d *diag) exit(w http.ResponseWriter, _ *http.Request) {
	go func() { panic("diag: requested exit") }()
	httpx.JSON(w, http.StatusAccepted, map[string]bool{"exiting": true})
}

// wait answers at once and writes KV key after ms in waitUntil.
func (d *diag) wait(w http.ResponseWriter, r *http.Request) {
	key := r.URL.Query().Get("key")
	ms, _ := strconv.Atoi(r.URL.Query().Get("ms"))
	ns, err := kv.Open("KV")
	if err != nil {
		fail(w, err)
		return
	}
	jsbridge.WaitUntil(r.Context(), func(ctx context.Context) {
		if err := jsutil.Sleep(ctx, time.Duration(ms)*time.Millisecond); err != nil {
			return
		}
		_ = ns.Put(ctx, key, []byte("done after "+strconv.Itoa(ms)+"ms"), kv.PutOptions{})
	})
	httpx.JSON(w, http.StatusOK, map[string]string{"scheduled": key})
}

func (d *diag) kvGet(w http.ResponseWriter, r *http.Request) {
	ns, err := kv.Open("KV")
	if err != nil {
		fail(w, err)
		return
	}
	v, found, err := ns.Get(r.Context(), httpx.Param(r, "key"))
	if err != nil {
		fail(w, err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"found": found, "value": string(v)})
}

func (d *diag) kvPut(w http.ResponseWriter, r *http.Request) {
	ns, err := kv.Open("KV")
	if err != nil {
		fail(w, err)
		return
	}
	body, _ := io.ReadAll(r.Body)
	opts := kv.PutOptions{}
	opts.ExpirationTTL, _ = strconv.ParseInt(r.URL.Query().Get("ttl"), 10, 64)
	if m := r.URL.Query().Get("meta"); m != "" {
		opts.Metadata = json.RawMessage(m)
	}
	if err := ns.Put(r.Context(), httpx.Param(r, "key"), body, opts); err != nil {
		httpx.Error(w, http.StatusBadRequest, err.Error())
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (d *diag) kvDelete(w http.ResponseWriter, r *http.Request) {
	ns, err := kv.Open("KV")
	if err != nil {
		fail(w, err)
		return
	}
	if err := ns.Delete(r.Context(), httpx.Param(r, "key")); err != nil {
		fail(w, err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (d *diag) kvList(w http.ResponseWriter, r *http.Request) {
	ns, err := kv.Open("KV")
	if err != nil {
		fail(w, err)
		return
	}
	q := r.URL.Query()
	limit, _ := strconv.Atoi(q.Get("limit"))
	res, err := ns.List(r.Context(), q.Get("prefix"), limit, q.Get("cursor"))
	if err != nil {
		httpx.Error(w, http.StatusBadRequest, err.Error())
		return
	}
	httpx.JSON(w, http.StatusOK, res)
}

// fetch makes an outbound request and reports what came back.
func (d *diag) fetch(w http.ResponseWriter, r *http.Request) {
	res, err := fetch.Do(r.Context(), fetch.Request{URL: r.URL.Query().Get("url"), Redirect: r.URL.Query().Get("redirect")})
	if err != nil {
		httpx.Error(w, http.StatusBadGateway, err.Error())
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"status": res.Status, "body": base64.StdEncoding.EncodeToString(res.Body), "location": res.Header.Get("Location")})
}

// assets reads a static asset through the ASSETS binding.
func (d *diag) assets(w http.ResponseWriter, r *http.Request) {
	res, err := fetch.Binding(r.Context(), "ASSETS", fetch.Request{URL: "https://assets.local/" + httpx.Param(r, "path")})
	if err != nil {
		fail(w, err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"status": res.Status, "body": string(res.Body), "contentType": res.Header.Get("Content-Type")})
}
