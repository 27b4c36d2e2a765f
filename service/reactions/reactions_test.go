package reactions

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/customemoji"
	"github.com/emojisearch/emojisearch/service/internal/meaningtest"
	"github.com/emojisearch/emojisearch/service/meaning"
	"github.com/emojisearch/emojisearch/service/metering"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/search"
)

// countingEmbedder counts model calls (one per request, spec 1).
type countingEmbedder struct {
	meaning.Embedder
	mu sync.Mutex
	n  int
}

func (c *countingEmbedder) Embed(ctx context.Context, t []string) ([][]float32, error) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	return c.Embedder.Embed(ctx, t)
}

type meter struct {
	over   bool
	counts map[string]int
}

func (m *meter) OverLimit(context.Context, access.Caller, string) bool { return m.over }
func (m *meter) Count(c access.Caller, metric string)                  { m.counts[metric]++ }
func (m *meter) MaybeFlush(context.Context, metering.Runner)           {}

type custom struct{}

func (custom) MatchNormalized(_ context.Context, appID, tenant, q string, _ int) ([]customemoji.Match, bool, error) {
	if q == "party" || q == "partyparrot" {
		return []customemoji.Match{{ID: "e1", Shortcode: "partyparrot", Score: 1}}, true, nil
	}
	return nil, true, nil
}

func newService(t *testing.T, emb meaning.Embedder) (*Service, *meter) {
	t.Helper()
	set := meaningtest.New(t, emb)
	m := &meter{counts: map[string]int{}}
	return New(Config{PackVersion: filepath.Base(set.Dir), Model: set.Model.Name, Packs: set.Packs, Meaning: TierMeaning(set.Tier),
		Calibration: set.Model.Calibration, Meter: m, Custom: custom{}}), m
}

var keyed = access.Caller{KeyID: "k1", AppID: "app1", AccountID: "acc1", Kind: "secret", Plan: plans.Free}

func post(t *testing.T, s *Service, c *access.Caller, body string) (*httptest.ResponseRecorder, search.Response) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "http://localhost/v1/suggest-reactions", strings.NewReader(body))
	if c != nil {
		r = r.WithContext(access.WithCaller(r.Context(), *c))
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, r)
	var res search.Response
	if rec.Code == 200 {
		require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &res))
	}
	return rec, res
}

func TestErrors(t *testing.T) {
	s, _ := newService(t, nil)
	cases := []struct {
		name, body string
		status     int
	}{
		{"not json", "text=hi", 400},
		{"no text", `{"locale":"en"}`, 400},
		{"empty text", `{"text":"  "}`, 400},
		{"text not a string", `{"text":5}`, 400},
		{"unknown locale", `{"text":"hi","locale":"xx"}`, 400},
		{"limit zero", `{"text":"hi","limit":0}`, 400},
		{"limit too big", `{"text":"hi","limit":25}`, 400},
		{"limit not a number", `{"text":"hi","limit":"six"}`, 400},
		{"tenant too long", `{"text":"hi","tenant":"` + strings.Repeat("a", 129) + `"}`, 400},
		{"body too big", `{"text":"` + strings.Repeat("a", MaxBody) + `"}`, 413},
		{"ok", `{"text":"thanks!"}`, 200},
		{"null limit is the default", `{"text":"thanks!","limit":null}`, 200},
		{"bcp47 locale", `{"text":"gracias","locale":"es-MX","limit":24}`, 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, _ := post(t, s, nil, c.body)
			assert.Equal(t, c.status, rec.Code, rec.Body.String())
			assert.Equal(t, "no-store", rec.Header().Get("Cache-Control"))
			if c.status != 200 {
				var e map[string]string
				require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &e))
				assert.NotEmpty(t, e["error"])
			}
		})
	}
}

func TestAnswer(t *testing.T) {
	emb := &countingEmbedder{Embedder: meaningtest.Local(t)}
	s, m := newService(t, emb)
	rec, res := post(t, s, &keyed, `{"text":"got the job!! so happy","limit":5}`)
	require.Equal(t, 200, rec.Code)
	require.Len(t, res.Results, 5)
	assert.Equal(t, "🎉", res.Results[0].Emoji)
	assert.Equal(t, "1F389", res.Results[0].ID)
	assert.Equal(t, 1, emb.n, "one embedding call per request")
	assert.Equal(t, 1, m.counts[plans.SemanticCalls])
	require.NotNil(t, res.AliasLocale)
	assert.Equal(t, "en", *res.AliasLocale)
	assert.False(t, res.Degraded)
	assert.Contains(t, rec.Header().Get("Server-Timing"), "embed;dur=")
	var fields map[string]any
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &fields))
	assert.NotContains(t, fields, "culture", "the reaction response has no culture field (spec 1)")
	assert.Contains(t, fields, "aliasLocale")

	// Text is cut to 256 characters; the default limit applies.
	_, res = post(t, s, nil, `{"text":"`+strings.Repeat("ha ", 200)+`"}`)
	assert.Len(t, res.Results, DefaultLimit)
	assert.LessOrEqual(t, len([]rune(res.Query)), MaxTextLength)
	assert.Equal(t, 1, m.counts[plans.SemanticCalls], "anonymous calls are not metered")
}

func TestDegradedAndOverLimit(t *testing.T) {
	s, m := newService(t, meaningtest.Failing{})
	_, res := post(t, s, &keyed, `{"text":"thank you so much"}`)
	assert.True(t, res.Degraded)
	assert.Equal(t, "🙏", res.Results[0].Emoji)
	assert.Zero(t, m.counts[plans.SemanticCalls], "no model answer: not counted")

	emb := &countingEmbedder{Embedder: meaningtest.Local(t)}
	s, m = newService(t, emb)
	m.over = true
	_, res = post(t, s, &keyed, `{"text":"what a lovely sunset at the beach"}`)
	assert.True(t, res.OverLimit)
	assert.Zero(t, emb.n, "over the limit: no model call")
	assert.Zero(t, m.counts[plans.SemanticCalls])
	for _, it := range res.Results {
		assert.Equal(t, "alias", it.Source)
	}
}

func TestCustomFirst(t *testing.T) {
	s, _ := newService(t, nil)
	_, res := post(t, s, &keyed, `{"text":"party tonight!","limit":3}`)
	require.Len(t, res.Results, 3)
	assert.Equal(t, "custom", res.Results[0].Source)
	assert.Equal(t, ":partyparrot:", res.Results[0].Emoji)
	assert.Equal(t, "http://localhost/v1/custom/app1/e1", res.Results[0].ImageURL)
	// Anonymous callers get no custom emoji.
	_, res = post(t, s, nil, `{"text":"party tonight!","limit":3}`)
	assert.NotEqual(t, "custom", res.Results[0].Source)
}

func TestMeaningErrorsAreNotFatal(t *testing.T) {
	s, _ := newService(t, nil)
	s.cfg.Meaning = func(context.Context, string, string) (Embedding, time.Duration, error) {
		return nil, 0, errors.Join(search.ErrIncomplete, errors.New("no vector file"))
	}
	rec, res := post(t, s, nil, `{"text":"lol"}`)
	require.Equal(t, 200, rec.Code)
	assert.False(t, res.Degraded)
	assert.Equal(t, "😂", res.Results[0].Emoji)
}

func BenchmarkServe(b *testing.B) {
	t := &testing.T{}
	s, _ := newService(t, nil)
	body := `{"text":"got the job!! so happy, thanks everyone for the support this year","limit":6}`
	for b.Loop() {
		r := httptest.NewRequest(http.MethodPost, "http://localhost/v1/suggest-reactions", strings.NewReader(body))
		s.ServeHTTP(httptest.NewRecorder(), r)
	}
}
