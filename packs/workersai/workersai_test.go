package workersai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/packs/workersai"
)

// fakeAPI speaks the Workers AI REST wire format: POST
// /client/v4/accounts/{id}/ai/run/{model}, bearer auth, {"text":[...]} in,
// the v4 envelope out. Each text's vector is [len(text), 1, 0, ...].
type fakeAPI struct {
	mu       sync.Mutex
	batches  []int
	fail     []int // statuses to answer first, one per request
	dims     int
	badShape bool
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/client/v4/accounts/acc-1/ai/run/@cf/baai/bge-m3") {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"result":null,"success":false,"errors":[{"code":7003,"message":"Could not route to `+r.URL.Path+`"}],"messages":[]}`)
		return
	}
	if r.Header.Get("Authorization") != "Bearer tok" {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"result":null,"success":false,"errors":[{"code":10000,"message":"Authentication error"}],"messages":[]}`)
		return
	}
	if len(f.fail) > 0 {
		status := f.fail[0]
		f.fail = f.fail[1:]
		if status == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "2")
		}
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"result":null,"success":false,"errors":[{"code":3040,"message":"status %d"}],"messages":[]}`, status)
		return
	}
	var in struct {
		Text []string `json:"text"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || len(in.Text) == 0 || len(in.Text) > 100 {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"result":null,"success":false,"errors":[{"code":5006,"message":"Error: required properties at '/' are 'text'"}],"messages":[]}`)
		return
	}
	f.batches = append(f.batches, len(in.Text))
	data := make([][]float32, len(in.Text))
	for i, t := range in.Text {
		data[i] = make([]float32, f.dims)
		data[i][0], data[i][1] = float32(len(t)), 1
	}
	n := len(data)
	if f.badShape {
		n++
	}
	_ = json.NewEncoder(w).Encode(map[string]any{
		"result":  map[string]any{"shape": []int{n, f.dims}, "data": data, "pooling": "cls"},
		"success": true, "errors": []any{}, "messages": []any{},
	})
}

func client(srv *httptest.Server) *workersai.Client {
	return &workersai.Client{AccountID: "acc-1", Token: "tok", BaseURL: srv.URL + "/client/v4", Batch: 3,
		Sleep: func(context.Context, time.Duration) error { return nil }}
}

func texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strings.Repeat("x", i+1)
	}
	return out
}

func TestEmbedBatches(t *testing.T) {
	f := &fakeAPI{dims: 8}
	srv := httptest.NewServer(f)
	defer srv.Close()
	vecs, err := client(srv).Embed(context.Background(), "@cf/baai/bge-m3", texts(7))
	require.NoError(t, err)
	require.Len(t, vecs, 7)
	for i, v := range vecs {
		assert.Len(t, v, 8)
		assert.Equal(t, float32(i+1), v[0], "rows stay in text order")
	}
	assert.Equal(t, []int{3, 3, 1}, f.batches)
}

func TestEmbedRetries(t *testing.T) {
	f := &fakeAPI{dims: 4, fail: []int{429, 503}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	c := client(srv)
	var waits []time.Duration
	c.Sleep = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	vecs, err := c.Embed(context.Background(), "@cf/baai/bge-m3", texts(2))
	require.NoError(t, err)
	assert.Len(t, vecs, 2)
	assert.Equal(t, []time.Duration{2 * time.Second, 2 * time.Second}, waits, "Retry-After, then doubling from 1 s")
}

func TestEmbedErrors(t *testing.T) {
	tests := []struct {
		name   string
		fake   *fakeAPI
		change func(c *workersai.Client)
		model  string
		want   error
		status int
	}{
		{"bad token", &fakeAPI{dims: 4}, func(c *workersai.Client) { c.Token = "other" }, "@cf/baai/bge-m3", workersai.ErrAPI, 401},
		{"unknown route", &fakeAPI{dims: 4}, nil, "@cf/nope", workersai.ErrAPI, 404},
		{"retries exhausted", &fakeAPI{dims: 4, fail: []int{500, 500, 500, 500, 500}}, nil, "@cf/baai/bge-m3", workersai.ErrAPI, 500},
		{"no retry on 400", &fakeAPI{dims: 4, fail: []int{400}}, nil, "@cf/baai/bge-m3", workersai.ErrAPI, 400},
		{"shape mismatch", &fakeAPI{dims: 4, badShape: true}, nil, "@cf/baai/bge-m3", workersai.ErrAPI, 0},
		{"no account", &fakeAPI{dims: 4}, func(c *workersai.Client) { c.AccountID = "" }, "@cf/baai/bge-m3", workersai.ErrConfig, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(tc.fake)
			defer srv.Close()
			c := client(srv)
			if tc.change != nil {
				tc.change(c)
			}
			_, err := c.Embed(context.Background(), tc.model, texts(2))
			require.ErrorIs(t, err, tc.want)
			var apiErr *workersai.APIError
			if tc.status != 0 {
				require.True(t, errors.As(err, &apiErr))
				assert.Equal(t, tc.status, apiErr.Status)
				assert.NotEmpty(t, apiErr.Errors)
			}
		})
	}
}

func TestFromEnv(t *testing.T) {
	t.Setenv("CLOUDFLARE_ACCOUNT_ID", "")
	t.Setenv("CLOUDFLARE_API_TOKEN", "")
	_, err := workersai.FromEnv()
	assert.ErrorIs(t, err, workersai.ErrConfig)
	t.Setenv("CLOUDFLARE_ACCOUNT_ID", "a")
	t.Setenv("CLOUDFLARE_API_TOKEN", "t")
	c, err := workersai.FromEnv()
	require.NoError(t, err)
	assert.Equal(t, "a", c.AccountID)
}
