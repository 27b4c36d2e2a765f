// Package isolate is hostsim's stand-in for one Workers isolate running the
// project's JS entry: it implements, natively in Go, the JS side of the
// entry protocol (worker/entry/PROTOCOL.md) around one long-lived Go
// instance, restarting the instance when it exits or traps.
package isolate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/emojisearch/emojisearch/hostsim/internal/gojs"
	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
	"github.com/emojisearch/emojisearch/hostsim/internal/webapi"
)

// Errors of the isolate.
var (
	ErrHung   = errors.New("isolate: the Worker's code hung and never generated a response")
	ErrClosed = errors.New("isolate: closed")
)

// Request is an incoming event for the Worker, body fully read (nil: none).
type Request struct {
	Method string
	URL    string
	Header http.Header
	Body   []byte
}

// Response is the Worker's answer.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Config describes an isolate. Env builds the Worker's env object (bindings,
// vars, secrets) once, in the isolate's realm.
type Config struct {
	Engine *gojs.Engine
	Env    func(rt *jsrt.Runtime, web *webapi.Web) (*jsrt.Object, error)
	Stdout io.Writer
	Stderr io.Writer
	// Timeout bounds one event; past it the event fails as hung (workerd
	// cancels requests whose code can no longer make progress).
	Timeout time.Duration
	// HTTPClient carries the Worker's outbound fetch.
	HTTPClient *http.Client
}

// Isolate owns one realm, its loop and the current Go instance.
type Isolate struct {
	cfg Config
	rt  *jsrt.Runtime
	web *webapi.Web
	env *jsrt.Object
	cur *instance

	starts int
	mu     sync.Mutex // guards starts for Stats
}

type instance struct {
	gi       *gojs.Instance
	binding  *jsrt.Object
	ready    bool
	dead     bool
	waiters  []func(error)
	inflight map[int]func(error)
	nextID   int
}

// ReadyHost is the `workers.ready` import of syumai/workers, which the Go
// program calls once its entry points are registered.
func ReadyHost(ctx context.Context, r wazero.Runtime) error {
	_, err := r.NewHostModuleBuilder("workers").NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, _ api.Module, _ []uint64) {
			if gi := gojs.FromContext(ctx); gi != nil {
				if in, ok := gi.Data.(*instance); ok {
					in.ready = true
				}
			}
		}), nil, nil).Export("ready").Instantiate(ctx)
	return err
}

// New starts an isolate's loop. The first event starts Go.
func New(ctx context.Context, cfg Config) (*Isolate, error) {
	if cfg.Engine == nil || cfg.Env == nil {
		return nil, errors.New("isolate: Engine and Env are required")
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 60 * time.Second
	}
	rt := jsrt.New()
	if cfg.Stdout != nil && cfg.Stderr != nil {
		rt.SetConsole(jsrt.Console{Stdout: cfg.Stdout, Stderr: cfg.Stderr})
	}
	stderr := cfg.Stderr
	if stderr == nil {
		stderr = io.Discard
	}
	rt.OnUncaught = func(err error) { fmt.Fprintf(stderr, "uncaught: %v\n", err) }
	web := webapi.NewConfig()
	if cfg.HTTPClient != nil {
		web = web.WithHTTPClient(cfg.HTTPClient)
	}
	iso := &Isolate{cfg: cfg, rt: rt, web: webapi.InstallWithConfig(rt, web)}
	go rt.Run(context.WithoutCancel(ctx))
	errc := make(chan error, 1)
	rt.Post(func() {
		env, err := cfg.Env(rt, iso.web)
		iso.env = env
		errc <- err
	})
	if err := <-errc; err != nil {
		rt.Close()
		return nil, err
	}
	return iso, nil
}

// Close stops the loop; the Go instance is dropped.
func (iso *Isolate) Close() {
	iso.rt.Close()
	<-iso.rt.Done()
}

// LiveRefs reports the JS values the current Go instance holds (0 when
// none runs); see gojs.Instance.LiveRefs.
func (iso *Isolate) LiveRefs() int {
	n := make(chan int, 1)
	if !iso.rt.Post(func() {
		if iso.cur == nil || iso.cur.gi == nil {
			n <- 0
			return
		}
		n <- iso.cur.gi.LiveRefs()
	}) {
		return 0
	}
	return <-n
}

// Starts reports how many Go instances were started (1 while healthy).
func (iso *Isolate) Starts() int {
	iso.mu.Lock()
	defer iso.mu.Unlock()
	return iso.starts
}

// withInstance calls fn on the loop with a ready instance, starting one if
// needed.
func (iso *Isolate) withInstance(ctx context.Context, fn func(*instance, error)) {
	in := iso.cur
	if in != nil && !in.dead {
		if in.ready {
			fn(in, nil)
		} else {
			in.waiters = append(in.waiters, func(err error) { fn(in, err) })
		}
		return
	}
	in = &instance{inflight: map[int]func(error){}}
	iso.cur = in
	in.waiters = append(in.waiters, func(err error) { fn(in, err) })
	iso.mu.Lock()
	iso.starts++
	iso.mu.Unlock()

	gi, err := iso.cfg.Engine.Instantiate(ctx, iso.rt)
	if err != nil {
		iso.kill(in, err)
		return
	}
	in.gi = gi
	gi.Data = in
	gi.OnExit(func(code int, err error) { iso.kill(in, err) })
	in.binding = iso.rt.NewObject()
	rc := iso.rt.NewObject()
	rc.Define("env", iso.env)
	rc.Define("binding", in.binding)
	// syumai's wasm_exec shows the Go program a Proxy of globalThis that adds
	// `context`; reads fall through to the real global.
	proxy := iso.rt.NewHostObject(iso.rt.Global, "global", nil)
	proxy.Define("context", rc)
	gi.UseGlobal(proxy)
	if err := gi.Start(ctx, []string{"js"}, nil); err != nil {
		iso.kill(in, err)
		return
	}
	if !in.ready {
		iso.kill(in, errors.New("isolate: Go program blocked without calling workers.ready"))
		return
	}
	waiters := in.waiters
	in.waiters = nil
	for _, w := range waiters {
		w(nil)
	}
}

func (iso *Isolate) kill(in *instance, err error) {
	if in.dead {
		return
	}
	in.dead = true
	if iso.cur == in {
		iso.cur = nil
	}
	if err == nil {
		err = errors.New("isolate: Go program exited")
	}
	waiters := in.waiters
	in.waiters = nil
	for _, w := range waiters {
		w(err)
	}
	for id, fail := range in.inflight {
		delete(in.inflight, id)
		fail(err)
	}
}

func (in *instance) track(fail func(error)) (done func()) {
	in.nextID++
	id := in.nextID
	in.inflight[id] = fail
	return func() { delete(in.inflight, id) }
}

// MaxBody is the entry's cap on request bodies (PROTOCOL.md): larger ones
// are answered 413 before Go sees them.
const MaxBody = 1 << 20

// EntryError is the answer the JS entry itself gives, in the service's
// error shape (worker.mjs errorResponse).
func EntryError(status int, message string) *Response {
	h := http.Header{}
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Cache-Control", "no-store")
	body, _ := json.Marshal(map[string]string{"error": message})
	return &Response{Status: status, Header: h, Body: body}
}

// Fetch delivers a request. The settled channel closes once the request's
// waitUntil work is done (or the instance died).
func (iso *Isolate) Fetch(ctx context.Context, req Request) (*Response, <-chan struct{}, error) {
	if len(req.Body) > MaxBody {
		done := make(chan struct{})
		close(done)
		return EntryError(http.StatusRequestEntityTooLarge, "Request body too large"), done, nil
	}
	type result struct {
		res *Response
		err error
	}
	resc := make(chan result, 1)
	settled := make(chan struct{})
	var settleOnce sync.Once
	settle := func() { settleOnce.Do(func() { close(settled) }) }
	posted := iso.rt.Post(func() {
		iso.withInstance(ctx, func(in *instance, err error) {
			if err != nil {
				settle()
				resc <- result{err: err}
				return
			}
			iso.dispatchFetch(in, req, func(res *Response, err error) { resc <- result{res, err} }, settle)
		})
	})
	if !posted {
		return nil, nil, ErrClosed
	}
	timer := time.NewTimer(iso.cfg.Timeout)
	defer timer.Stop()
	select {
	case r := <-resc:
		return r.res, settled, r.err
	case <-timer.C:
		settle()
		return nil, settled, ErrHung
	}
}

func (iso *Isolate) dispatchFetch(in *instance, req Request, reply func(*Response, error), settle func()) {
	rt := iso.rt
	var once sync.Once
	answer := func(res *Response, err error) { once.Do(func() { reply(res, err) }) }
	untrack := in.track(func(err error) { answer(nil, err); settle() })

	obj := rt.NewObject()
	obj.Define("method", req.Method)
	obj.Define("url", req.URL)
	var pairs []jsrt.Value
	for _, k := range slices.Sorted(maps.Keys(req.Header)) {
		for _, v := range req.Header[k] {
			pairs = append(pairs, rt.NewArray(strings.ToLower(k), v))
		}
	}
	obj.Define("headers", rt.NewArray(pairs...))
	if req.Body == nil {
		obj.Define("body", jsrt.Null)
	} else {
		obj.Define("body", rt.NewBytes(req.Body))
	}
	respond := rt.NewFunction("respond", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
		if e := jsrt.Arg(args, 0); !jsrt.IsNullish(e) {
			answer(nil, fmt.Errorf("isolate: worker failed: %s", jsrt.ToString(e)))
			return jsrt.Undefined, nil
		}
		res, err := responseFromJS(jsrt.Arg(args, 1))
		answer(res, err)
		return jsrt.Undefined, nil
	})
	settleFn := rt.NewFunction("settle", func(jsrt.Value, []jsrt.Value) (jsrt.Value, error) {
		untrack()
		settle()
		return jsrt.Undefined, nil
	})
	if _, err := rt.CallMethod(in.binding, "fetch", obj, respond, settleFn); err != nil {
		iso.kill(in, fmt.Errorf("isolate: binding.fetch threw: %w", err))
	}
}

func responseFromJS(v jsrt.Value) (*Response, error) {
	o, ok := v.(*jsrt.Object)
	if !ok {
		return nil, errors.New("isolate: respond got no response object")
	}
	res := &Response{Status: int(jsrt.ToNumber(o.MustGet("status"))), Header: http.Header{}}
	if res.Status < 200 || res.Status > 599 {
		return nil, fmt.Errorf("isolate: status %d out of range", res.Status)
	}
	if h, ok := o.MustGet("headers").(*jsrt.Object); ok {
		for _, p := range h.Elems() {
			pair, ok := p.(*jsrt.Object)
			if !ok || len(pair.Elems()) != 2 {
				return nil, errors.New("isolate: malformed header pair")
			}
			res.Header.Add(jsrt.ToString(pair.Elems()[0]), jsrt.ToString(pair.Elems()[1]))
		}
	}
	if b, ok := o.MustGet("body").(*jsrt.Object); ok {
		res.Body = append([]byte(nil), b.Bytes()...)
	}
	return res, nil
}

// Scheduled delivers a cron event and waits for the job and its waitUntil
// work.
func (iso *Isolate) Scheduled(ctx context.Context, cron string, at time.Time) error {
	errc := make(chan error, 1)
	posted := iso.rt.Post(func() {
		iso.withInstance(ctx, func(in *instance, err error) {
			if err != nil {
				errc <- err
				return
			}
			var once sync.Once
			finish := func(err error) { once.Do(func() { errc <- err }) }
			untrack := in.track(finish)
			ev := iso.rt.NewObject()
			ev.Define("cron", cron)
			ev.Define("scheduledTime", float64(at.UnixMilli()))
			done := iso.rt.NewFunction("done", func(_ jsrt.Value, args []jsrt.Value) (jsrt.Value, error) {
				untrack()
				if e := jsrt.Arg(args, 0); !jsrt.IsNullish(e) {
					finish(fmt.Errorf("isolate: scheduled job failed: %s", jsrt.ToString(e)))
				} else {
					finish(nil)
				}
				return jsrt.Undefined, nil
			})
			if _, err := iso.rt.CallMethod(in.binding, "scheduled", ev, done); err != nil {
				iso.kill(in, fmt.Errorf("isolate: binding.scheduled threw: %w", err))
			}
		})
	})
	if !posted {
		return ErrClosed
	}
	select {
	case err := <-errc:
		return err
	case <-time.After(iso.cfg.Timeout):
		return ErrHung
	}
}
