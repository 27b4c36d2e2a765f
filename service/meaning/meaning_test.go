package meaning

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/fusion"
	"github.com/emojisearch/emojisearch/localai/aimodel"
	"github.com/emojisearch/emojisearch/packs/dist"
	"github.com/emojisearch/emojisearch/service/modelguard"
	"github.com/emojisearch/emojisearch/service/search"
)

var (
	packDir   = filepath.Join("../../packs/dist", dist.Version)
	modelPath = "../../packs/models/glove-cldr.100.embm"
)

// files reads vector files from the pack folder; broken names fail or
// answer garbage.
type files struct {
	missing, corrupt map[string]bool
	loads            atomic.Int32
}

func (f *files) LoadVectors(_ context.Context, name string) ([]byte, error) {
	f.loads.Add(1)
	switch {
	case f.missing[name]:
		return nil, errors.New("assets answered 404")
	case f.corrupt[name]:
		return []byte("not a vector file"), nil
	}
	return os.ReadFile(filepath.Join(packDir, name))
}

type countingEmbedder struct {
	Embedder
	calls atomic.Int32
}

func (c *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.calls.Add(1)
	return c.Embedder.Embed(ctx, texts)
}

// jsonRunner passes the local model's answer through JSON, as the AI
// binding's answer crosses from JS to Go.
type jsonRunner struct{ m *aimodel.Model }

func (r jsonRunner) Run(ctx context.Context, model string, inputs, out any) error {
	res, err := r.m.Run(ctx, model, inputs)
	if err != nil {
		return err
	}
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

type failing struct{}

func (failing) Embed(context.Context, []string) ([][]float32, error) {
	return nil, ErrBackend
}

func localModel(t *testing.T) *aimodel.Model {
	t.Helper()
	m, err := aimodel.Open(modelPath)
	require.NoError(t, err)
	return m
}

func emojiOf(t *testing.T) func(string) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(packDir, "index.en.bin"))
	require.NoError(t, err)
	en, err := engine.Load(engine.NewConfig(), b)
	require.NoError(t, err)
	return func(id string) (string, bool) {
		e, ok := en.Get(id)
		return e.Emoji, ok
	}
}

func newTier(t *testing.T, e Embedder, f Files) *Tier {
	t.Helper()
	m, err := Lookup("glove-cldr@100")
	require.NoError(t, err)
	return New(Config{Model: m, Embedder: e, Files: f, Emoji: emojiOf(t)})
}

func TestFileName(t *testing.T) {
	cases := []struct{ model, locale, want string }{
		{"glove-cldr@100", "en", "vectors.glove-cldr.100.bin"},
		{"glove-cldr@100", "", "vectors.glove-cldr.100.bin"},
		{"glove-cldr@100", "zh", "vectors.glove-cldr.100.zh.bin"},
		{"bge-m3@1024", "fr", "vectors.bge-m3.1024.fr.bin"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, FileName(c.model, c.locale))
	}
}

func TestLookup(t *testing.T) {
	for _, m := range Models {
		got, err := Lookup(m.Name)
		require.NoError(t, err)
		assert.Less(t, got.Calibration.Floor, got.Calibration.Ceiling, m.Name)
		assert.NotEmpty(t, got.WorkersAI)
	}
	_, err := Lookup("word2vec@300")
	assert.Error(t, err)
}

func TestSearchLocalModel(t *testing.T) {
	f := &files{}
	emb := &countingEmbedder{Embedder: Binding{AI: jsonRunner{localModel(t)}, Model: "@local/glove-cldr"}}
	tier := newTier(t, emb, f)
	res, err := tier.Search(context.Background(), "so tired after work", "en", 10)
	require.NoError(t, err)
	hits := res.Hits
	assert.Positive(t, res.Embed)
	require.NotEmpty(t, hits)
	emoji := []string{}
	for _, h := range hits {
		emoji = append(emoji, h.Emoji)
	}
	assert.Contains(t, emoji[:3], "😫", "tired face: %v", emoji)
	for i := 1; i < len(hits); i++ {
		assert.GreaterOrEqual(t, hits[i-1].Cosine, hits[i].Cosine)
	}
	// Files are read once per instance.
	_, err = tier.Search(context.Background(), "cat", "en", 5)
	require.NoError(t, err)
	assert.EqualValues(t, 1, f.loads.Load())
	_, err = tier.Search(context.Background(), "猫", "zh", 5)
	require.NoError(t, err)
	assert.EqualValues(t, 2, f.loads.Load(), "the locale file joins the shared one")
}

func TestVectorFileFailures(t *testing.T) {
	shared, zh := FileName("glove-cldr@100", "en"), FileName("glove-cldr@100", "zh")
	cases := []struct {
		name            string
		missing         map[string]bool
		corrupt         map[string]bool
		wantHits, calls bool
	}{
		{"locale file missing: English hits, incomplete", map[string]bool{zh: true}, nil, true, true},
		{"locale file corrupt: English hits, incomplete", nil, map[string]bool{zh: true}, true, true},
		{"shared file missing: locale hits, incomplete", map[string]bool{shared: true}, nil, true, true},
		{"both missing: no call, incomplete", map[string]bool{shared: true, zh: true}, nil, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := &files{missing: c.missing, corrupt: c.corrupt}
			emb := &countingEmbedder{Embedder: Local{Model: localModel(t).Embedding()}}
			tier := newTier(t, emb, f)
			res, err := tier.Search(context.Background(), "猫", "zh", 5)
			assert.ErrorIs(t, err, search.ErrIncomplete)
			assert.Equal(t, c.wantHits, len(res.Hits) > 0)
			assert.Equal(t, c.calls, emb.calls.Load() > 0)
			// The next request tries again.
			f.missing, f.corrupt = nil, nil
			res, err = tier.Search(context.Background(), "猫", "zh", 5)
			require.NoError(t, err)
			assert.NotEmpty(t, res.Hits)
		})
	}
}

func TestWrongModelFile(t *testing.T) {
	m, _ := Lookup("bge-m3@1024")
	tier := New(Config{Model: m, Embedder: failing{}, Files: renamed{}, Emoji: emojiOf(t)})
	_, err := tier.Search(context.Background(), "cat", "en", 5)
	assert.ErrorIs(t, err, search.ErrIncomplete)
	assert.ErrorContains(t, err, "holds model glove-cldr@100")
}

// renamed serves the glove file under any name.
type renamed struct{}

func (renamed) LoadVectors(context.Context, string) ([]byte, error) {
	return os.ReadFile(filepath.Join(packDir, "vectors.glove-cldr.100.bin"))
}

func TestBackendFailure(t *testing.T) {
	tier := newTier(t, failing{}, &files{})
	_, err := tier.Search(context.Background(), "cat", "en", 5)
	assert.ErrorIs(t, err, ErrBackend)
	assert.NotErrorIs(t, err, search.ErrIncomplete)
}

func TestREST(t *testing.T) {
	srv := httptest.NewServer(localModel(t).HandlerWithToken("secret"))
	defer srv.Close()
	base := srv.URL + "/accounts/local/ai/run/"
	ok := REST{BaseURL: base, Token: "secret", Model: "@local/glove-cldr", Client: http.DefaultClient}
	rows, err := ok.Embed(context.Background(), []string{"cat", "dog"})
	require.NoError(t, err)
	require.Len(t, rows, 2)
	assert.Len(t, rows[0], 100)

	cases := []struct {
		name string
		r    REST
		want string
	}{
		{"wrong token", REST{BaseURL: base, Token: "nope", Model: "@local/glove-cldr", Client: http.DefaultClient}, "status 401"},
		{"unknown model", REST{BaseURL: base, Token: "secret", Model: "@cf/none", Client: http.DefaultClient}, "status 404"},
		{"unreachable", REST{BaseURL: "http://127.0.0.1:1/", Token: "secret", Model: "m", Client: http.DefaultClient}, "embedding backend failed"},
	}
	for _, c := range cases {
		_, err := c.r.Embed(context.Background(), []string{"cat"})
		assert.ErrorIs(t, err, ErrBackend, c.name)
		assert.ErrorContains(t, err, c.want, c.name)
	}
}

func TestOutputRows(t *testing.T) {
	cases := []struct {
		name string
		out  output
		n    int
		ok   bool
	}{
		{"one row", output{Data: [][]float64{{1, 0}}}, 1, true},
		{"too few rows", output{Data: [][]float64{{1, 0}}}, 2, false},
		{"ragged", output{Data: [][]float64{{1, 0}, {1}}}, 2, false},
		{"empty row", output{Data: [][]float64{{}}}, 1, false},
	}
	for _, c := range cases {
		_, err := c.out.rows(c.n)
		assert.Equal(t, c.ok, err == nil, c.name)
	}
}

func TestFuserMatchesSpecFuse(t *testing.T) {
	out := engine.Output{Results: []engine.Result{{ID: "1F602", Emoji: "😂", Score: 1}}, Confidence: 1}
	hits := []search.Hit{{ID: "1F634", Emoji: "😴", Cosine: 0.9}, {ID: "1F602", Emoji: "😂", Cosine: 0.8}}
	items := Fuser(fusion.DefaultSemanticCalibration)(out, hits, 10)
	require.Len(t, items, 2)
	assert.Equal(t, "😂", items[0].Emoji, "an exact alias hit is pinned")
	assert.Equal(t, "😴", items[1].Emoji)
	assert.Equal(t, "semantic", items[1].Source)
}

// A REST backend that accepts the request and never answers costs one
// deadline; while the breaker is open the backend is not called at all,
// and every failure is ErrBackend (a degraded answer).
func TestGuardedHungBackend(t *testing.T) {
	var calls atomic.Int32
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	b, err := modelguard.New(modelguard.NewConfig("embedding").WithDeadline(50 * time.Millisecond))
	require.NoError(t, err)
	m, err := Lookup("glove-cldr@100")
	require.NoError(t, err)
	emb := Guarded{Embedder: REST{BaseURL: srv.URL + "/ai/run/", Token: "t", Model: m.WorkersAI, Client: srv.Client()}, Breaker: b}
	tier := newTier(t, emb, &files{})

	start := time.Now()
	_, err = tier.Search(context.Background(), "so tired", "en", 10)
	assert.Less(t, time.Since(start), 2*time.Second)
	require.ErrorIs(t, err, ErrBackend)
	require.ErrorIs(t, err, modelguard.ErrDeadline)

	start = time.Now()
	for range 5 {
		_, err = tier.Search(context.Background(), "so tired", "en", 10)
		require.ErrorIs(t, err, ErrBackend)
		require.ErrorIs(t, err, modelguard.ErrOpen)
	}
	assert.Less(t, time.Since(start), 50*time.Millisecond, "an open breaker answers at once")
	assert.EqualValues(t, 1, calls.Load(), "one call reached the hung backend")
}

// Available is /v1/health's truth: a bound model that fails reads false.
func TestGuardedAvailable(t *testing.T) {
	b, err := modelguard.New(modelguard.NewConfig("embedding"))
	require.NoError(t, err)
	assert.False(t, Guarded{Embedder: failing{}, Breaker: b}.Available(context.Background()), "a model that fails")
	b, err = modelguard.New(modelguard.NewConfig("embedding"))
	require.NoError(t, err)
	emb := Binding{AI: jsonRunner{localModel(t)}, Model: "@local/glove-cldr"}
	assert.True(t, Guarded{Embedder: emb, Breaker: b}.Available(context.Background()), "the local model")
}
