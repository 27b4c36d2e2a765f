package e2e

import (
	"context"
	"encoding/json"
	"image/color"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emojisearch/emojisearch/localai/aimodel"
	"github.com/emojisearch/emojisearch/service/classify"
)

// embedToken is the bearer token the REST endpoint demands of workerd.
const embedToken = "e2e-embed-token"

// backend is the embedding model both targets reach, with a switch that
// makes it fail like an unavailable Workers AI: hostsim binds it as env.AI,
// workerd (which has no local Workers AI) calls it over the Workers AI REST
// API through EMBED_URL.
type backend struct {
	model *aimodel.Model
	down  atomic.Bool
	// hung, when set, is closed to release the calls that hang: the
	// backend accepts every call and answers none until then.
	hung atomic.Pointer[chan struct{}]
	srv  *http.Server
	url  string // EMBED_URL: ends with /ai/run/
}

var ai *backend

func startBackend(root string) (*backend, error) {
	m, err := aimodel.Open(filepath.Join(root, "packs", "models", "glove-cldr.100.embm"))
	if err != nil {
		return nil, err
	}
	b := &backend{model: m}
	rest := m.HandlerWithToken(embedToken)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	b.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if b.hang(r.Context()) {
			return
		}
		if b.down.Load() {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_ = json.NewEncoder(w).Encode(map[string]any{"result": nil, "success": false,
				"errors": []any{map[string]any{"code": 3040, "message": "Capacity temporarily exceeded"}}, "messages": []any{}})
			return
		}
		if strings.HasSuffix(r.URL.Path, "/"+classify.VisionModel) {
			serveVisionREST(w, r)
			return
		}
		rest.ServeHTTP(w, r)
	})}
	go func() { _ = b.srv.Serve(ln) }()
	b.url = "http://" + ln.Addr().String() + "/accounts/local/ai/run/"
	return b, nil
}

// Run is hostsim's AI binding.
func (b *backend) Run(ctx context.Context, model string, inputs any) (any, error) {
	if b.hang(ctx) {
		return nil, &aimodel.Error{Code: 3040, Message: "released after a hang"}
	}
	if b.down.Load() {
		return nil, &aimodel.Error{Code: 3040, Message: "Capacity temporarily exceeded"}
	}
	if model == classify.VisionModel {
		return fakeVision(inputs)
	}
	return b.model.Run(ctx, model, inputs)
}

func (b *backend) close() { _ = b.srv.Close() }

// hang holds a call while the backend is hung, until it is released or
// ctx ends; it reports whether the call was held.
func (b *backend) hang(ctx context.Context) bool {
	ch := b.hung.Load()
	if ch == nil {
		return false
	}
	select {
	case <-*ch:
	case <-ctx.Done():
	}
	return true
}

// aiDown makes the embedding backend fail until the test ends.
func aiDown(t *testing.T) {
	t.Helper()
	ai.down.Store(true)
	t.Cleanup(func() {
		ai.down.Store(false)
		aiRecovered(t)
	})
}

// aiHang makes the backend accept every call and answer none until the
// test ends (a Workers AI that hangs).
func aiHang(t *testing.T) {
	t.Helper()
	ch := make(chan struct{})
	ai.hung.Store(&ch)
	t.Cleanup(func() {
		ai.hung.Store(nil)
		close(ch)
		aiRecovered(t)
	})
}

// meaningRecovered waits until searches use the embedding model again
// (its breaker's probe after the cool-down).
func meaningRecovered(t *testing.T) {
	t.Helper()
	eventually(t, 20*time.Second, func() bool {
		r := get(t, "/v1/search?q="+fresh("recovered"))
		return r.Status == 200 && r.JSON(t)["degraded"] == false
	}, "the meaning tier never came back after the fault")
}

// aiRecovered waits until searches and image classifications use the
// models again: each model's breaker (service/modelguard) lets a probe
// through after its cool-down, so tests after a fault see them as they are.
func aiRecovered(t *testing.T) {
	t.Helper()
	meaningRecovered(t)
	eventually(t, 20*time.Second, func() bool {
		r := classifyImage(t, "", "image/jpeg", squareJPEG(t, color.White))
		return r.Status == 200 && r.JSON(t)["caption"] != ""
	}, "the vision model never came back after the fault")
}
