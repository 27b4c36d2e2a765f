package e2e

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/emojisearch/emojisearch/hostsim/aimodel"
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
	srv   *http.Server
	url   string // EMBED_URL: ends with /ai/run/
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
	if b.down.Load() {
		return nil, &aimodel.Error{Code: 3040, Message: "Capacity temporarily exceeded"}
	}
	if model == classify.VisionModel {
		return fakeVision(inputs)
	}
	return b.model.Run(ctx, model, inputs)
}

func (b *backend) close() { _ = b.srv.Close() }

// aiDown makes the embedding backend fail until the test ends.
func aiDown(t *testing.T) {
	t.Helper()
	ai.down.Store(true)
	t.Cleanup(func() { ai.down.Store(false) })
}
