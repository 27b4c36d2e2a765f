package search

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/metering"
	"github.com/emojisearch/emojisearch/service/plans"
)

// fakeMeter counts calls per app and is over the limit on demand.
type fakeMeter struct {
	mu      sync.Mutex
	over    bool
	counts  map[string]int
	flushes int
}

func (m *fakeMeter) OverLimit(_ context.Context, _ access.Caller, metric string) bool {
	return m.over && metric == plans.SemanticCalls
}

func (m *fakeMeter) Count(c access.Caller, metric string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.counts[c.AppID+"/"+metric]++
}

func (m *fakeMeter) MaybeFlush(ctx context.Context, run metering.Runner) {
	run(ctx, func(context.Context) { m.flushes++ })
}

var keyed = access.Caller{KeyID: "k1", AppID: "app1", AccountID: "acc1", Kind: "publishable", Plan: plans.Free}

func getAs(t *testing.T, s *Service, c *access.Caller, query string) (*httptest.ResponseRecorder, Response) {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, "http://localhost/v1/search?"+query, nil)
	if c != nil {
		r = r.WithContext(access.WithCaller(r.Context(), *c))
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, r)
	require.Equal(t, 200, rec.Code, rec.Body.String())
	return rec, decode(t, rec)
}

func decode(t *testing.T, rec *httptest.ResponseRecorder) Response {
	t.Helper()
	var res Response
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &res))
	return res
}

func meteredService(t *testing.T, m Meaning) (*Service, *fakeMeter, *memCache) {
	t.Helper()
	s, cache := newService(t, m, false)
	meter := &fakeMeter{counts: map[string]int{}}
	s.cfg.Meter = meter
	return s, meter, cache
}

// Metering rule 1: one semantic_calls per keyed search with a model call or
// from the shared cache; nothing for anonymous, development or degraded
// calls.
func TestMeteringCounts(t *testing.T) {
	dev := access.Caller{Dev: true, KeyID: "dev_1", Kind: "publishable"}
	anon := access.Caller{Anonymous: true, AnonReason: access.AnonNoKey}
	cases := []struct {
		name    string
		meaning Meaning
		caller  *access.Caller
		query   string
		want    int
	}{
		{"keyed miss with a model call", meaning{}, &keyed, "q=tired", 1},
		{"keyed degraded", meaning{down: true}, &keyed, "q=tired", 0},
		{"keyed without a meaning tier", nil, &keyed, "q=tired", 0},
		{"anonymous", meaning{}, &anon, "q=tired", 0},
		{"no caller in context", meaning{}, nil, "q=tired", 0},
		{"development key", meaning{}, &dev, "q=tired", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, meter, _ := meteredService(t, tc.meaning)
			_, res := getAs(t, s, tc.caller, tc.query)
			assert.False(t, res.OverLimit)
			assert.Equal(t, tc.want, meter.counts["app1/"+plans.SemanticCalls])
		})
	}
	s, meter, _ := meteredService(t, meaning{})
	getAs(t, s, &keyed, "q=tired")
	_, hit := getAs(t, s, &keyed, "q=tired")
	require.True(t, hit.Cached)
	assert.Equal(t, 2, meter.counts["app1/"+plans.SemanticCalls], "a cache hit counts too")
	assert.Equal(t, 2, meter.flushes, "every metered call gives the meter a chance to flush")
}

// The over-limit row of spec 1's States table.
func TestOverLimit(t *testing.T) {
	s, meter, cache := meteredService(t, meaning{})
	getAs(t, s, &keyed, "q=tired") // cached while under the limit
	meter.over = true

	rec, cached := getAs(t, s, &keyed, "q=tired")
	assert.True(t, cached.Cached, "a cached query is still answered")
	assert.True(t, cached.OverLimit)
	assert.Equal(t, "public, max-age=3600, s-maxage=86400", rec.Header().Get("Cache-Control"))
	assert.Regexp(t, `^total;dur=[0-9.]+$`, rec.Header().Get("Server-Timing"))

	entries := len(cache.m)
	rec, hybrid := getAs(t, s, &keyed, "q=so+tired+after+work")
	assert.True(t, hybrid.OverLimit)
	assert.False(t, hybrid.Cached)
	require.NotEmpty(t, hybrid.Results)
	for _, it := range hybrid.Results {
		assert.Equal(t, "alias", it.Source, "hybrid over the limit is alias-only")
	}
	assert.Equal(t, "no-store", rec.Header().Get("Cache-Control"))
	assert.Regexp(t, `^total;dur=[0-9.]+$`, rec.Header().Get("Server-Timing"), "no model call")

	rec, semantic := getAs(t, s, &keyed, "q=so+tired+after+work&mode=semantic")
	assert.True(t, semantic.OverLimit)
	assert.Empty(t, semantic.Results, "semantic over the limit is empty")
	assert.Equal(t, "no-store", rec.Header().Get("Cache-Control"))

	assert.Equal(t, entries, len(cache.m), "over-limit answers never enter the shared cache")
	assert.Equal(t, 1, meter.counts["app1/"+plans.SemanticCalls], "nothing counted over the limit")

	_, anon := getAs(t, s, nil, "q=so+tired+after+work")
	assert.False(t, anon.OverLimit, "anonymous calls are never over a plan limit")
}

// noFiles is a meaning tier whose vector files did not load: no model
// call was made.
type noFiles struct{}

func (noFiles) Search(context.Context, string, string, int) (MeaningResult, error) {
	return MeaningResult{}, ErrIncomplete
}

func TestNoModelCallIsNotCounted(t *testing.T) {
	s, meter, _ := meteredService(t, noFiles{})
	rec, res := getAs(t, s, &keyed, "q=tired")
	assert.NotEmpty(t, res.Results, "alias results")
	assert.Equal(t, "no-store", rec.Header().Get("Cache-Control"))
	assert.Regexp(t, `^total;dur=[0-9.]+$`, rec.Header().Get("Server-Timing"))
	assert.Zero(t, meter.counts["app1/"+plans.SemanticCalls], "no model call, nothing counted")
}
