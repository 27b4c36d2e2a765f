package classify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image/color"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/internal/meaningtest"
	"github.com/emojisearch/emojisearch/service/meaning"
	"github.com/emojisearch/emojisearch/service/metering"
	"github.com/emojisearch/emojisearch/service/modelguard"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/reactions"
)

// vision answers with a fixed text, or fails, and counts its calls.
type vision struct {
	mu     sync.Mutex
	answer string
	err    error
	calls  int
}

func (v *vision) Describe(_ context.Context, img []byte) (string, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.calls++
	return v.answer, v.err
}

type kv struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (k *kv) Get(_ context.Context, key string) ([]byte, bool, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	b, ok := k.m[key]
	return b, ok, nil
}

func (k *kv) Put(_ context.Context, key string, v []byte, _ time.Duration) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.m[key] = v
	return nil
}

type meter struct {
	over   bool
	counts map[string]int
}

func (m *meter) OverLimit(_ context.Context, _ access.Caller, metric string) bool {
	return m.over && metric == plans.ImageClassifications
}
func (m *meter) Count(_ access.Caller, metric string)        { m.counts[metric]++ }
func (m *meter) MaybeFlush(context.Context, metering.Runner) {}

const catAnswer = `{"caption":"A cat sleeping on a sofa","reaction":"So cozy!","keywords":["cat","sleep","sofa"],"emoji":["🐱","😴","🛋️","🦄🦄x"]}`

func newService(t *testing.T, v Vision, emb meaning.Embedder) (*Service, *kv, *meter) {
	t.Helper()
	set := meaningtest.New(t, emb)
	packs, model, tier := set.Packs, set.Model, set.Tier
	cache := &kv{m: map[string][]byte{}}
	m := &meter{counts: map[string]int{}}
	return New(Config{Packs: packs, Vision: v, Meaning: reactions.TierMeaning(tier), Calibration: model.Calibration,
		Cache: cache, Meter: m}), cache, m
}

var keyed = access.Caller{KeyID: "k1", AppID: "app1", AccountID: "acc1", Kind: "secret", Plan: plans.Free}

func classify(t *testing.T, s *Service, c *access.Caller, ct string, body []byte, query string, headers ...string) (*httptest.ResponseRecorder, Response) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "http://localhost/v1/classify-image"+query, bytes.NewReader(body))
	r.Header.Set("Content-Type", ct)
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	if c != nil {
		r = r.WithContext(access.WithCaller(r.Context(), *c))
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, r)
	var res Response
	if rec.Code == 200 {
		require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &res))
	}
	return rec, res
}

func TestClassifyErrors(t *testing.T) {
	v := &vision{answer: catAnswer}
	s, _, _ := newService(t, v, nil)
	img := jpegOf(t, 32, 32, color.White)
	cases := []struct {
		name, ct string
		body     []byte
		query    string
		headers  []string
		status   int
	}{
		{"png content type", "image/png", img, "", nil, 400},
		{"no content type", "", img, "", nil, 400},
		{"bytes are not the type", "image/webp", img, "", nil, 400},
		{"not an image", "image/jpeg", []byte("hello"), "", nil, 400},
		{"60000 x 60000", "image/jpeg", jpegHeader(60000, 60000), "", nil, 400},
		{"bad hash", "image/jpeg", img, "", []string{"X-Image-Hash", "xyz"}, 400},
		{"hash too long", "image/jpeg", img, "", []string{"X-Image-Hash", "00ff00ff00ff00ff0"}, 400},
		{"unknown locale", "image/jpeg", img, "?locale=xx", nil, 400},
		{"limit 0", "image/jpeg", img, "?limit=0", nil, 400},
		{"limit 51", "image/jpeg", img, "?limit=51", nil, 400},
		{"over 256 KB", "image/jpeg", append(jpegHeader(10, 10), make([]byte, MaxBytes)...), "", nil, 413},
		{"ok", "image/jpeg; charset=binary", img, "?locale=pt-BR&limit=50", nil, 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, _ := classify(t, s, nil, c.ct, c.body, c.query, c.headers...)
			assert.Equal(t, c.status, rec.Code, rec.Body.String())
			assert.Equal(t, "no-store", rec.Header().Get("Cache-Control"))
		})
	}
	assert.Equal(t, 1, v.calls, "errors never reach the model")
}

func TestClassifyAnswerAndCache(t *testing.T) {
	v := &vision{answer: catAnswer}
	s, cache, m := newService(t, v, nil)
	img := jpegOf(t, 32, 32, color.White)
	const hash = "00FF00ff00ff00ff"
	rec, res := classify(t, s, &keyed, "image/jpeg", img, "", "X-Image-Hash", hash)
	require.Equal(t, 200, rec.Code, rec.Body.String())
	assert.Equal(t, "A cat sleeping on a sofa", res.Caption)
	assert.Equal(t, "So cozy!", res.Reaction)
	assert.Equal(t, []string{"cat", "sleep", "sofa"}, res.Keywords)
	require.NotEmpty(t, res.Results)
	assert.Equal(t, "🐱", res.Results[0].Emoji)
	assert.LessOrEqual(t, len(res.Results), DefaultLimit)
	for _, it := range res.Results {
		assert.NotContains(t, it.Emoji, "🦄🦄", "proposals outside the catalog are dropped")
	}
	assert.False(t, res.Cached)
	assert.False(t, res.Degraded)
	assert.Equal(t, 1, m.counts[plans.ImageClassifications])
	_, ok := cache.m[CacheKey("00ff00ff00ff00ff")]
	assert.True(t, ok, "the label is cached under the lower-case hash")

	_, again := classify(t, s, &keyed, "image/jpeg", img, "?limit=2", "X-Image-Hash", hash)
	assert.True(t, again.Cached)
	assert.Equal(t, 1, v.calls, "a cache hit makes no model call")
	assert.Equal(t, res.Caption, again.Caption)
	assert.Len(t, again.Results, 2)
	assert.Equal(t, 2, m.counts[plans.ImageClassifications], "a cache hit is counted")

	// Without a hash nothing is cached.
	classify(t, s, nil, "image/jpeg", img, "")
	assert.Len(t, cache.m, 1)
	assert.Equal(t, 2, v.calls)
}

func TestClassifyDegraded(t *testing.T) {
	img := jpegOf(t, 16, 16, color.Black)
	// The vision model fails, answers without a label, or is not bound:
	// 503 vision_unavailable with Retry-After, not counted.
	outages := map[string]Vision{
		"model error":      &vision{err: errors.New("3040: capacity")},
		"answer, no label": &vision{answer: "I'm sorry, I can't see images."},
		"no model":         nil,
	}
	for name, v := range outages {
		t.Run(name, func(t *testing.T) {
			s, _, m := newService(t, v, nil)
			rec, _ := classify(t, s, &keyed, "image/jpeg", img, "")
			require.Equal(t, http.StatusServiceUnavailable, rec.Code, rec.Body.String())
			assert.Equal(t, "30", rec.Header().Get("Retry-After"))
			assert.Equal(t, "no-store", rec.Header().Get("Cache-Control"))
			assert.JSONEq(t, `{"error":"vision_unavailable","message":"The vision model could not label the image; retry after 30 s."}`, rec.Body.String())
			assert.Zero(t, m.counts[plans.ImageClassifications])
		})
	}
	// The caption cannot be embedded: fewer results, degraded.
	s, _, m := newService(t, &vision{answer: catAnswer}, meaningtest.Failing{})
	_, res := classify(t, s, &keyed, "image/jpeg", img, "")
	assert.True(t, res.Degraded)
	assert.Equal(t, "A cat sleeping on a sofa", res.Caption)
	require.NotEmpty(t, res.Results)
	for _, it := range res.Results {
		assert.Equal(t, "alias", it.Source)
	}
	assert.Equal(t, 1, m.counts[plans.ImageClassifications], "the vision model answered: counted")
}

func TestClassifyOverLimit(t *testing.T) {
	v := &vision{answer: catAnswer}
	s, _, m := newService(t, v, nil)
	img := jpegOf(t, 16, 16, color.Black)
	const hash = "1111222233334444"
	classify(t, s, &keyed, "image/jpeg", img, "", "X-Image-Hash", hash) // cached before the limit
	m.over = true
	_, res := classify(t, s, &keyed, "image/jpeg", img, "")
	assert.True(t, res.OverLimit)
	assert.False(t, res.Degraded)
	assert.Empty(t, res.Results)
	assert.Equal(t, 1, v.calls, "over the limit: no model call")
	_, res = classify(t, s, &keyed, "image/jpeg", img, "", "X-Image-Hash", hash)
	assert.True(t, res.OverLimit)
	assert.True(t, res.Cached, "a cached label is still served")
	assert.NotEmpty(t, res.Results)
	assert.Equal(t, 1, m.counts[plans.ImageClassifications], "nothing counted over the limit")
}

// hungVision accepts the picture and never answers (until its context ends).
type hungVision struct{ calls int }

func (h *hungVision) Describe(ctx context.Context, _ []byte) (string, error) {
	h.calls++
	<-ctx.Done()
	return "", ctx.Err()
}

// A hung vision model costs one deadline: the route answers as for a
// model that is unavailable (503 vision_unavailable with Retry-After), and
// while the breaker is open the model is not called; nothing is counted
// (issue 31).
func TestClassifyHungVisionModel(t *testing.T) {
	img := jpegOf(t, 16, 16, color.Black)
	b, err := modelguard.New(modelguard.NewConfig("vision").WithDeadline(50 * time.Millisecond))
	require.NoError(t, err)
	hung := &hungVision{}
	s, _, m := newService(t, GuardedVision{Vision: hung, Breaker: b}, nil)
	for range 3 {
		start := time.Now()
		rec, _ := classify(t, s, &keyed, "image/jpeg", img, "")
		require.Equal(t, 503, rec.Code)
		assert.Equal(t, "30", rec.Header().Get("Retry-After"))
		assert.Contains(t, rec.Body.String(), `"vision_unavailable"`)
		assert.Less(t, time.Since(start), 2*time.Second)
	}
	assert.Equal(t, 1, hung.calls, "one call reached the hung model")
	assert.Zero(t, m.counts[plans.ImageClassifications])
	_, err = GuardedVision{Vision: hung, Breaker: b}.Describe(context.Background(), img)
	assert.ErrorIs(t, err, ErrVision)
	assert.ErrorIs(t, err, modelguard.ErrOpen)
}
