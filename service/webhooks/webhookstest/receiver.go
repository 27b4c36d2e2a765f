// Package webhookstest is a webhook receiver for tests, written apart from
// the sender's code: it checks every delivery with its own implementation
// of spec 2's "Signature check for receivers" and answers from a per-path
// script of statuses. The unit tests of service/webhooks and the e2e suite
// (deliveries from hostsim and workerd over real HTTP) use the same one.
package webhookstest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// NoSecret is the verdict on a delivery to a path the test gave no secret.
const NoSecret = "no secret for this path"

// Hit is one delivery the receiver got.
type Hit struct {
	At     time.Time
	Path   string
	Header http.Header
	Body   []byte
	Err    string // the receiver's verdict: "" = verified, else why not
}

// Receiver is a webhook endpoint on 127.0.0.1. Paths under /landing are
// where its redirects point: a request there means a sender followed one.
type Receiver struct {
	URL string // http://127.0.0.1:port

	mu      sync.Mutex
	hits    []Hit
	secrets map[string]string        // path → secret
	script  map[string][]int         // path → statuses, the last repeats
	delay   map[string]time.Duration // path → wait before answering
	landed  []string
}

// NewReceiver starts a receiver, closed when t ends.
func NewReceiver(t testing.TB) *Receiver {
	r := &Receiver{secrets: map[string]string{}, script: map[string][]int{}, delay: map[string]time.Duration{}}
	srv := httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(srv.Close)
	r.URL = srv.URL
	return r
}

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	path := req.URL.Path
	r.mu.Lock()
	wait := r.delay[path]
	r.mu.Unlock()
	time.Sleep(wait)
	r.mu.Lock()
	defer r.mu.Unlock()
	if strings.HasPrefix(path, "/landing") {
		r.landed = append(r.landed, path)
		return
	}
	h := Hit{At: time.Now(), Path: path, Header: req.Header.Clone(), Body: body, Err: NoSecret}
	if secret, ok := r.secrets[path]; ok {
		h.Err = Verify(secret, req.Header.Get("Service-Signature"), body, h.At)
	}
	r.hits = append(r.hits, h)
	n := 0
	for _, x := range r.hits {
		if x.Path == path {
			n++
		}
	}
	status := http.StatusOK
	if s := r.script[path]; len(s) > 0 {
		status = s[min(n, len(s))-1]
	}
	if status >= 300 && status < 400 {
		w.Header().Set("Location", r.URL+"/landing"+path)
	}
	w.WriteHeader(status)
}

// At is the URL of path on the receiver.
func (r *Receiver) At(path string) string { return r.URL + path }

// SetSecret is the signing secret deliveries to path are checked with.
func (r *Receiver) SetSecret(path, secret string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.secrets[path] = secret
}

// Secret is path's signing secret.
func (r *Receiver) Secret(path string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.secrets[path]
}

// Script sets the statuses path answers, one per delivery, the last
// repeating; none means 200.
func (r *Receiver) Script(path string, statuses ...int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.script[path] = statuses
}

// Delay makes path wait d before it answers.
func (r *Receiver) Delay(path string, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.delay[path] = d
}

// All is every delivery, in order.
func (r *Receiver) All() []Hit {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Hit(nil), r.hits...)
}

// Got is every delivery to path, in order.
func (r *Receiver) Got(path string) []Hit {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Hit
	for _, h := range r.hits {
		if h.Path == path {
			out = append(out, h)
		}
	}
	return out
}

// Bad lists what a correct sender never causes: a redirect followed, or a
// delivery to a path with a secret that fails the receiver's check.
func (r *Receiver) Bad() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, p := range r.landed {
		out = append(out, "redirect followed to "+p)
	}
	for _, h := range r.hits {
		if h.Err != "" && h.Err != NoSecret {
			out = append(out, h.Path+": "+h.Err)
		}
	}
	return out
}

// Verify is the receiver's side of spec 2: split the header on commas into
// name=value, read t and every v1, HMAC-SHA256 over "<t>.<raw body>" keyed
// with the whole secret, compare in constant time against each v1, and
// refuse a t more than 300 s from now. It returns "" when the delivery
// verifies, else why not.
func Verify(secret, header string, body []byte, now time.Time) string {
	if secret == "" {
		return NoSecret
	}
	var t string
	var sigs []string
	for _, f := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(f), "=")
		if !ok {
			continue
		}
		switch k {
		case "t":
			t = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	ts, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		return "no t"
	}
	if d := now.Unix() - ts; d > 300 || d < -300 {
		return "t outside 300 s"
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(t))
	mac.Write([]byte("."))
	mac.Write(body)
	want := mac.Sum(nil)
	for _, s := range sigs {
		got, err := hex.DecodeString(s)
		if err == nil && hmac.Equal(got, want) {
			return ""
		}
	}
	return "no matching v1"
}
