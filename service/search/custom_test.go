package search

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/customemoji"
)

// fakeCustom: app1 has one emoji matching "tired"; app2 has none. seen,
// when set, records the queries it was asked.
type fakeCustom struct {
	down bool
	seen *[]string
}

func (f fakeCustom) MatchNormalized(_ context.Context, appID, tenant, query string, limit int) ([]customemoji.Match, bool, error) {
	if f.seen != nil {
		*f.seen = append(*f.seen, query)
	}
	switch {
	case f.down:
		return nil, false, errors.New("D1 unavailable")
	case appID != "app1":
		return nil, false, nil
	case strings.Contains(query, "tired"):
		return []customemoji.Match{{ID: "e1", Shortcode: "so_tired", Score: 1}}, true, nil
	}
	return nil, true, nil
}

// Spec 1 custom emoji rules and the Cache-Control table's custom row.
func TestCustomEmojiFirstAndPrivate(t *testing.T) {
	s, _, cache := meteredService(t, meaning{})
	s.cfg.Custom = fakeCustom{}

	rec, res := getAs(t, s, &keyed, "q=tired&limit=3")
	require.Len(t, res.Results, 3)
	first := res.Results[0]
	assert.Equal(t, Item{Emoji: ":so_tired:", ID: "C-e1", Score: 1, Source: "custom",
		ImageURL: "http://localhost/v1/custom/app1/e1", Shortcode: "so_tired"}, first)
	assert.Equal(t, "private, max-age=60", rec.Header().Get("Cache-Control"))
	for _, body := range cache.m {
		assert.NotContains(t, string(body), "so_tired", "custom results never enter the shared cache")
	}

	rec, res = getAs(t, s, &keyed, "q=joy")
	assert.Equal(t, "private, max-age=60", rec.Header().Get("Cache-Control"), "the app has custom emoji")
	assert.NotEqual(t, "custom", res.Results[0].Source)

	rec, res = getAs(t, s, &keyed, "q=tired&culture=1")
	assert.Equal(t, "custom", res.Results[0].Source, "custom emoji still come first with culture")
	assert.Equal(t, "private, max-age=60", rec.Header().Get("Cache-Control"))

	_, anon := getAs(t, s, nil, "q=tired")
	assert.NotEqual(t, "custom", anon.Results[0].Source, "anonymous calls get no custom emoji")

	other := keyed
	other.AppID = "app2"
	rec, _ = getAs(t, s, &other, "q=tired")
	assert.Equal(t, "public, max-age=3600, s-maxage=86400", rec.Header().Get("Cache-Control"))
}

func TestCustomEmojiWhenDegradedOrOverLimit(t *testing.T) {
	s, meter, _ := meteredService(t, meaning{down: true})
	s.cfg.Custom = fakeCustom{}
	rec, res := getAs(t, s, &keyed, "q=tired")
	assert.True(t, res.Degraded)
	assert.Equal(t, "custom", res.Results[0].Source, "still merged when the backend is down")
	assert.Equal(t, "no-store", rec.Header().Get("Cache-Control"))

	meter.over = true
	_, res = getAs(t, s, &keyed, "q=so+tired&mode=semantic")
	assert.True(t, res.OverLimit)
	require.Len(t, res.Results, 1)
	assert.Equal(t, "custom", res.Results[0].Source, "still merged over the limit")
}

func TestCustomStoreDown(t *testing.T) {
	s, _, _ := meteredService(t, meaning{})
	s.cfg.Custom = fakeCustom{down: true}
	rec, res := getAs(t, s, &keyed, "q=tired")
	assert.NotEmpty(t, res.Results)
	assert.NotEqual(t, "custom", res.Results[0].Source)
	assert.Equal(t, "no-store", rec.Header().Get("Cache-Control"))
}

// The custom emoji are matched on the answer's normalised query (spec 1:
// custom emoji use the normalised form), the one the engine returned, on a
// fresh answer and on a cached one alike.
func TestCustomEmojiMatchTheAnswersQuery(t *testing.T) {
	s, _, _ := meteredService(t, meaning{})
	var seen []string
	s.cfg.Custom = fakeCustom{seen: &seen}
	for _, cached := range []bool{false, true} {
		seen = nil
		_, res := getAs(t, s, &keyed, "q=%20So%20TIRED!!%20&limit=3")
		assert.Equal(t, cached, res.Cached)
		assert.Equal(t, "so tired", res.Query)
		assert.Equal(t, []string{res.Query}, seen)
		assert.Equal(t, "custom", res.Results[0].Source)
	}
}
