package search

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cultureDir reads the committed culture files.
type cultureDir struct {
	dir   string
	reads int
	fail  bool
}

func (c *cultureDir) LoadCulture(_ context.Context, locale string) ([]byte, bool, error) {
	c.reads++
	if c.fail {
		return nil, false, errors.New("assets unreachable")
	}
	b, err := os.ReadFile(filepath.Join(c.dir, "culture."+locale+".json"))
	if os.IsNotExist(err) {
		return nil, false, nil
	}
	return b, err == nil, err
}

func cultureService(t *testing.T, day string, loader *cultureDir) *Service {
	t.Helper()
	s, _ := newService(t, meaning{}, false)
	now, err := time.Parse("2006-01-02 15:04", day)
	require.NoError(t, err)
	s.cfg.Now = func() time.Time { return now }
	s.cfg.Cultures = NewCultures(loader)
	return s
}

func hasCulture(items []Item, id string) bool {
	for _, it := range items {
		if it.Source == "culture" && it.CultureID == id {
			return true
		}
	}
	return false
}

func TestCultureLayer(t *testing.T) {
	loader := &cultureDir{dir: filepath.Join(packDir, version(t), "culture")}
	s := cultureService(t, "2026-11-25 23:30", loader)

	_, off := get(t, s, "q=thanksgiving&region=US")
	assert.Nil(t, off.Culture, "culture is off by default")
	for _, it := range off.Results {
		assert.NotEqual(t, "culture", it.Source)
	}

	rec, on := get(t, s, "q=thanksgiving&culture=1&region=us")
	require.Equal(t, 200, rec.Code)
	assert.Equal(t, "public, max-age=3600", rec.Header().Get("Cache-Control"))
	require.NotNil(t, on.Culture)
	info := on.Culture.(map[string]any)
	assert.Equal(t, "2026-11-25", info["day"], "the request's UTC day")
	assert.Equal(t, "US", info["region"])
	require.NotEmpty(t, on.Results)
	var cultural []Item
	for i, it := range on.Results {
		if it.Source == "culture" {
			assert.Positive(t, i, "culture never replaces the top answer unless a regional lead names it")
			assert.NotEmpty(t, it.Context)
			assert.NotEmpty(t, it.CultureID)
			cultural = append(cultural, it)
		}
	}
	assert.LessOrEqual(t, len(cultural), 5)
	assert.True(t, hasCulture(on.Results, "en.thanksgiving-pie"), "the US regional entries apply with region US")

	_, noRegion := get(t, s, "q=thanksgiving&culture=1")
	assert.False(t, hasCulture(noRegion.Results, "en.thanksgiving-pie"), "regional entries need a region in scope")
	assert.Nil(t, noRegion.Culture.(map[string]any)["region"])

	_, late := get(t, cultureService(t, "2026-12-20 12:00", loader), "q=thanksgiving&culture=1&region=US")
	assert.False(t, hasCulture(late.Results, "en.thanksgiving-pie"), "outside its window")

	_, limited := get(t, s, "q=thanksgiving&culture=1&region=US&limit=2")
	assert.Len(t, limited.Results, 2, "cut to limit after insertion")

	reads := loader.reads
	get(t, s, "q=turkey&culture=1")
	assert.Equal(t, reads, loader.reads, "a culture file is read once per instance")
}

func TestCultureUnavailable(t *testing.T) {
	failing := &cultureDir{fail: true}
	s := cultureService(t, "2026-11-25 10:00", failing)
	rec, res := get(t, s, "q=joy&culture=1")
	require.Equal(t, 200, rec.Code)
	assert.Nil(t, res.Culture)
	require.NotEmpty(t, res.Results)
	get(t, s, "q=joy&culture=1")
	assert.Equal(t, 2, failing.reads, "a failed read is retried")

	none := cultureService(t, "2026-11-25 10:00", &cultureDir{dir: t.TempDir()})
	_, res = get(t, none, "q=joy&culture=1")
	assert.Nil(t, res.Culture, "a locale without a culture file")
}
