package aimodel_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/hostsim"
	"github.com/emojisearch/emojisearch/localai/aimodel"
	"github.com/emojisearch/emojisearch/packs/workersai"
)

const modelPath = "../../packs/models/glove-cldr.100.embm"

var (
	once   sync.Once
	shared *aimodel.Model
	err0   error
)

func open(t *testing.T) *aimodel.Model {
	t.Helper()
	once.Do(func() { shared, err0 = aimodel.Open(modelPath) })
	require.NoError(t, err0)
	return shared
}

var _ hostsim.AIModel = (*aimodel.Model)(nil)

func dot(a, b []float32) float64 {
	var d float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
	}
	return d
}

// rows converts the Run output back to vectors, checking its shape.
func rows(t *testing.T, out any) [][]float32 {
	t.Helper()
	m, ok := out.(map[string]any)
	require.True(t, ok)
	shape := m["shape"].([]any)
	data := m["data"].([]any)
	require.Len(t, shape, 2)
	require.Equal(t, float64(len(data)), shape[0])
	var vs [][]float32
	for _, r := range data {
		row := r.([]any)
		require.Equal(t, float64(len(row)), shape[1])
		v := make([]float32, len(row))
		for i, x := range row {
			v[i] = float32(x.(float64))
		}
		vs = append(vs, v)
	}
	return vs
}

func TestRunShapes(t *testing.T) {
	m := open(t)
	ctx := context.Background()
	tests := []struct {
		name   string
		model  string
		inputs any
		n      int
	}{
		{"one string", aimodel.Name, map[string]any{"text": "cat"}, 1},
		{"array", aimodel.Name, map[string]any{"text": []any{"cat", "dog", "so tired after work"}}, 3},
		{"go strings", "glove-cldr@100", map[string]any{"text": []string{"ship it"}}, 1},
		{"empty text", aimodel.Name, map[string]any{"text": []any{""}}, 1},
		{"bad bytes", aimodel.Name, map[string]any{"text": []any{"\xff\xfe", strings.Repeat("x", 10<<10)}}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := m.Run(ctx, tc.model, tc.inputs)
			require.NoError(t, err)
			vs := rows(t, out)
			require.Len(t, vs, tc.n)
			for _, v := range vs {
				assert.Len(t, v, 100)
			}
		})
	}
}

func TestRunErrors(t *testing.T) {
	m := open(t)
	many := make([]any, aimodel.MaxTexts+1)
	for i := range many {
		many[i] = "cat"
	}
	tests := []struct {
		name   string
		model  string
		inputs any
		want   error
	}{
		{"unknown model", "@cf/baai/bge-m3", map[string]any{"text": "cat"}, aimodel.ErrNoSuchModel},
		{"not an object", aimodel.Name, "cat", aimodel.ErrInvalidInput},
		{"no text", aimodel.Name, map[string]any{"prompt": "cat"}, aimodel.ErrInvalidInput},
		{"number in array", aimodel.Name, map[string]any{"text": []any{"cat", 3.0}}, aimodel.ErrInvalidInput},
		{"empty array", aimodel.Name, map[string]any{"text": []any{}}, aimodel.ErrInvalidInput},
		{"too many", aimodel.Name, map[string]any{"text": many}, aimodel.ErrInvalidInput},
		{"wrong type", aimodel.Name, map[string]any{"text": 1.0}, aimodel.ErrInvalidInput},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := m.Run(context.Background(), tc.model, tc.inputs)
			assert.ErrorIs(t, err, tc.want)
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := m.Run(ctx, aimodel.Name, map[string]any{"text": "cat"})
	assert.ErrorIs(t, err, context.Canceled)

	alias := m.WithNames("@cf/baai/bge-m3")
	_, err = alias.Run(context.Background(), "@cf/baai/bge-m3", map[string]any{"text": "cat"})
	assert.NoError(t, err)
	assert.NotContains(t, m.Names(), "@cf/baai/bge-m3", "WithNames leaves the original alone")
}

func TestRunSemantics(t *testing.T) {
	m := open(t)
	out, err := m.Run(context.Background(), aimodel.Name, map[string]any{"text": []any{"gato", "cat face | cat | pet", "automobile | car"}})
	require.NoError(t, err)
	vs := rows(t, out)
	assert.Greater(t, dot(vs[0], vs[1]), dot(vs[0], vs[2]), "es gato is nearer cat than car")
}

// TestRESTHandler drives the REST endpoint with the pack build's Workers AI
// client: the same wire format as Cloudflare's API.
func TestRESTHandler(t *testing.T) {
	m := open(t)
	srv := httptest.NewServer(m.HandlerWithToken("local-token"))
	defer srv.Close()
	c := &workersai.Client{AccountID: "acc", Token: "local-token", BaseURL: srv.URL, Batch: 2}

	vecs, err := c.Embed(context.Background(), aimodel.Name, []string{"cat", "kitten", "car"})
	require.NoError(t, err)
	require.Len(t, vecs, 3)
	direct := m.Embedding().Embed("kitten")
	assert.InDeltaSlice(t, direct, vecs[1], 1e-6, "REST and binding give the same vector")

	tests := []struct {
		name   string
		client *workersai.Client
		model  string
		status int
	}{
		{"wrong token", &workersai.Client{AccountID: "acc", Token: "nope", BaseURL: srv.URL}, aimodel.Name, http.StatusUnauthorized},
		{"unknown model", c, "@cf/baai/bge-m3", http.StatusNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.client.Embed(context.Background(), tc.model, []string{"cat"})
			var apiErr *workersai.APIError
			require.True(t, errors.As(err, &apiErr), "%v", err)
			assert.Equal(t, tc.status, apiErr.Status)
			assert.NotEmpty(t, apiErr.Errors)
		})
	}
}

func TestRESTBadRequests(t *testing.T) {
	srv := httptest.NewServer(open(t).Handler())
	defer srv.Close()
	tests := []struct {
		name, method, body, auth string
		status                   int
	}{
		{"ok", "POST", `{"text":["cat"]}`, "Bearer x", 200},
		{"get", "GET", ``, "Bearer x", 405},
		{"no auth", "POST", `{"text":["cat"]}`, "", 401},
		{"not json", "POST", `{"text":`, "Bearer x", 400},
		{"no text", "POST", `{}`, "Bearer x", 400},
		{"invalid utf8 text", "POST", "{\"text\":[\"\xff\xfe\"]}", "Bearer x", 200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, srv.URL+"/accounts/a/ai/run/"+aimodel.Name, strings.NewReader(tc.body))
			require.NoError(t, err)
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			assert.Equal(t, tc.status, resp.StatusCode)
			assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
		})
	}
}

func BenchmarkRun(b *testing.B) {
	m, err := aimodel.Open(modelPath)
	require.NoError(b, err)
	in := map[string]any{"text": []any{"so tired after work"}}
	b.Run("binding", func(b *testing.B) {
		for b.Loop() {
			if _, err := m.Run(context.Background(), aimodel.Name, in); err != nil {
				b.Fatal(err)
			}
		}
	})
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()
	c := &workersai.Client{AccountID: "a", Token: "t", BaseURL: srv.URL}
	b.Run("rest", func(b *testing.B) {
		for b.Loop() {
			if _, err := c.Embed(context.Background(), aimodel.Name, []string{"so tired after work"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
