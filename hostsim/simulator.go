package hostsim

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/emojisearch/emojisearch/hostsim/internal/assets"
	"github.com/emojisearch/emojisearch/hostsim/internal/gojs"
	"github.com/emojisearch/emojisearch/hostsim/internal/isolate"
	"github.com/emojisearch/emojisearch/hostsim/internal/wrangler"
)

// Simulator is a running Worker with its bindings.
type Simulator struct {
	cfg     Config
	wcfg    wrangler.Config
	engine  *gojs.Engine
	iso     *isolate.Isolate
	assets  *assets.Server
	closers []io.Closer

	largeSlots chan struct{}  // bodies over largeBody held at once (body.go)
	background sync.WaitGroup // requests whose waitUntil work is still running
	cronStop   context.CancelFunc
	cronDone   chan struct{}
}

// New loads the project and starts an isolate (Go itself starts on the
// first event, as in workerd).
func New(ctx context.Context, cfg Config) (*Simulator, error) {
	if errs := cfg.problems(); len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	wcfg, err := wrangler.LoadWithConfig(cfg.configPath, wrangler.NewLoadConfig().WithEnv(cfg.envName))
	if err != nil {
		return nil, err
	}
	if err := wcfg.Validate(); err != nil {
		return nil, err
	}
	var devVars map[string]string
	if p, ok := wrangler.DevVarsPath(wcfg.Dir, cfg.envName); ok {
		if devVars, err = wrangler.LoadDevVars(p); err != nil {
			return nil, err
		}
	}
	for k, v := range cfg.vars {
		if devVars == nil {
			devVars = map[string]string{}
		}
		devVars[k] = v
	}
	wcfg = wcfg.WithDevVars(devVars)

	wasmPath := cfg.wasmPath
	if wasmPath == "" {
		if wasmPath, err = wasmOfEntry(wcfg.MainPath); err != nil {
			return nil, err
		}
	}
	wasm, err := os.ReadFile(wasmPath)
	if err != nil {
		return nil, fmt.Errorf("hostsim: reading module: %w", err)
	}
	if !exists(cfg.stateDir) {
		fmt.Fprintf(cfg.stderr, "hostsim: no state folder %s: creating it, every binding starts fresh\n", absPath(cfg.stateDir))
	}
	if err := os.MkdirAll(cfg.stateDir, 0o755); err != nil {
		return nil, fmt.Errorf("hostsim: state folder: %w", err)
	}
	cacheDir := cfg.cacheDir
	if cacheDir == "" {
		cacheDir = filepath.Join(cfg.stateDir, "wazero")
	}
	s := &Simulator{cfg: cfg, wcfg: wcfg, largeSlots: make(chan struct{}, largeBodies)}
	if s.engine, err = gojs.NewEngine(ctx, wasm, cacheDir, isolate.ReadyHost); err != nil {
		return nil, err
	}
	env, err := s.openBindings(ctx)
	if err != nil {
		s.Close()
		return nil, err
	}
	s.iso, err = isolate.New(ctx, isolate.Config{
		Engine:  s.engine,
		Env:     env,
		Stdout:  cfg.stdout,
		Stderr:  cfg.stderr,
		Timeout: cfg.timeout,
	})
	if err != nil {
		s.Close()
		return nil, err
	}
	if cfg.runCrons && len(wcfg.Crons) > 0 {
		if err := s.startCrons(); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// Warm starts the Go instance now instead of on the first request.
func (s *Simulator) Warm(ctx context.Context) error {
	_, settled, err := s.iso.Fetch(ctx, isolate.Request{Method: http.MethodGet, URL: "http://localhost/__hostsim_warmup", Header: http.Header{}})
	if settled != nil {
		<-settled
	}
	return err
}

// Close waits for background work, then stops the isolate and closes every
// store so nothing written is lost.
func (s *Simulator) Close() {
	if s.cronStop != nil {
		s.cronStop()
		<-s.cronDone
	}
	waited := make(chan struct{})
	go func() { s.background.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(30 * time.Second):
	}
	if s.iso != nil {
		s.iso.Close()
	}
	for i := len(s.closers) - 1; i >= 0; i-- {
		_ = s.closers[i].Close()
	}
	if s.engine != nil {
		_ = s.engine.Close(context.Background())
	}
}

// ServeHTTP delivers a request the way the Workers runtime does: static
// assets first, the test-scheduled routes of `wrangler dev`, then the Worker.
func (s *Simulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	status := s.serve(w, r)
	if s.cfg.log != nil {
		fmt.Fprintf(s.cfg.log, "%s %s %s %d %s\n", start.UTC().Format(time.RFC3339), r.Method, RedactPath(r.URL.Path), status, time.Since(start).Round(10*time.Microsecond))
	}
}

// minSecretSegment is the shortest path segment RedactPath takes for a
// credential: 32 URL-safe characters hold 192 bits, more than any id a
// route names, and as many as the shortest key or token a Worker may put in
// a path (an invite token is 43).
const minSecretSegment = 32

// RedactPath replaces the path segments that look like credentials (a
// long run of URL-safe base64 characters) with
// "[redacted]", so a request log never holds a token a Worker takes in its
// path. File names (a dot) and hexcode sequences keep their text.
func RedactPath(p string) string {
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		if looksSecret(seg) {
			segs[i] = "[redacted]"
		}
	}
	return strings.Join(segs, "/")
}

func looksSecret(seg string) bool {
	if len(seg) < minSecretSegment {
		return false
	}
	hyphen, nonHex := false, false
	for _, c := range []byte(seg) {
		switch {
		case c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F':
		case c >= 'g' && c <= 'z' || c >= 'G' && c <= 'Z' || c == '_':
			nonHex = true
		case c == '-':
			hyphen = true
		default:
			return false
		}
	}
	hexcodes := hyphen && !nonHex // 1f468-200d-1f469-200d-1f467-200d-1f466
	return !hexcodes
}

func (s *Simulator) serve(w http.ResponseWriter, r *http.Request) int {
	if r.URL.Path == "/__scheduled" || r.URL.Path == "/cdn-cgi/local/scheduled" {
		return s.serveScheduled(w, r)
	}
	if s.assets != nil {
		if res, ok := s.assets.Lookup(r.Method, r.URL.RequestURI(), r.Header); ok {
			copyHeader(w.Header(), res.Header)
			w.WriteHeader(res.Status)
			if r.Method != http.MethodHead {
				_, _ = w.Write(res.Body)
			}
			return res.Status
		}
	}
	var body []byte
	if r.Body != nil && r.Method != http.MethodGet && r.Method != http.MethodHead {
		b, release, err := s.readBody(w, r)
		defer release()
		var be *bodyError
		if errors.As(err, &be) {
			if be.status != 499 {
				w.Header().Set("Connection", "close")
				http.Error(w, http.StatusText(be.status), be.status)
			}
			return be.status
		}
		body = b
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	header := r.Header.Clone()
	header.Set("Host", r.Host)
	if ip := remoteIP(r.RemoteAddr); ip != "" && header.Get("Cf-Connecting-Ip") == "" {
		header.Set("Cf-Connecting-Ip", ip)
	}
	s.background.Add(1)
	res, settled, err := s.iso.Fetch(r.Context(), isolate.Request{
		Method: r.Method,
		URL:    scheme + "://" + r.Host + r.URL.RequestURI(),
		Header: header,
		Body:   body,
	})
	if settled != nil {
		go func() { <-settled; s.background.Done() }()
	} else {
		s.background.Done()
	}
	if err != nil {
		fmt.Fprintf(s.cfg.stderr, "hostsim: %s %s: %v\n", r.Method, r.URL.Path, err)
		if errors.Is(err, isolate.ErrHung) {
			http.Error(w, "The Workers runtime canceled this request because it detected that your Worker's code had hung and would never generate a response.", http.StatusInternalServerError)
			return http.StatusInternalServerError
		}
		// The Go instance died under this request: the entry answers for it.
		res = isolate.EntryError(http.StatusInternalServerError, "internal error")
	}
	copyHeader(w.Header(), res.Header)
	w.WriteHeader(res.Status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(res.Body)
	}
	return res.Status
}

func (s *Simulator) serveScheduled(w http.ResponseWriter, r *http.Request) int {
	cron := r.URL.Query().Get("cron")
	if cron == "" {
		cron = "* * * * *"
	}
	at := time.Now()
	if t := r.URL.Query().Get("time"); t != "" {
		if ms, err := parseInt(t); err == nil {
			at = time.UnixMilli(ms)
		}
	}
	if err := s.iso.Scheduled(r.Context(), cron, at); err != nil {
		http.Error(w, "Scheduled event failed: "+err.Error(), http.StatusInternalServerError)
		return http.StatusInternalServerError
	}
	w.Header().Set("Content-Type", "text/plain;charset=UTF-8")
	_, _ = io.WriteString(w, "Ran scheduled event")
	return http.StatusOK
}

func copyHeader(dst, src http.Header) {
	for k, vs := range src {
		for _, v := range vs {
			dst.Add(k, v)
		}
	}
}

func remoteIP(addr string) string {
	if i := strings.LastIndexByte(addr, ':'); i > 0 {
		return strings.Trim(addr[:i], "[]")
	}
	return addr
}

func parseInt(s string) (int64, error) {
	var n int64
	_, err := fmt.Sscan(s, &n)
	return n, err
}

// freshStore logs, before a binding opens its store at path, that the
// store is not there and starts empty: an operator whose state folder lost
// a sub-folder sees it in the log, not only in missing data.
func (s *Simulator) freshStore(what, path string) {
	if !exists(path) {
		fmt.Fprintf(s.cfg.stderr, "hostsim: %s: no stored data at %s: starting fresh\n", what, absPath(path))
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}
