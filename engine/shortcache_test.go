package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestShortCache: a short query answers the same from the cache as when
// searched afresh, a caller's changes to its copy do not reach the cache,
// and long queries are not kept.
func TestShortCache(t *testing.T) {
	e := allLocales(t)
	for _, tc := range []struct {
		q     string
		opts  Options
		short bool
	}{
		{"s", DefaultOptions(), true},
		{"ca", Options{Limit: 5, Locale: "en", Prefix: true}, true},
		{"ca", Options{Limit: 5, Locale: "fr", Prefix: true}, true},
		{"猫", Options{Limit: 10, Locale: "zh"}, true},
		{":)", DefaultOptions(), true},
		{"😂", DefaultOptions(), true},
		{"cat", DefaultOptions(), false},
		{"ab\u0301", DefaultOptions(), false},
	} {
		t.Run(tc.q+"/"+tc.opts.Locale, func(t *testing.T) {
			fresh := e.search(tc.q, withLimit(tc.opts), nil)
			first := e.Search(tc.q, tc.opts)
			assert.Equal(t, fresh, first)
			key, ok := shortKeyOf(tc.q, withLimit(tc.opts))
			require.Equal(t, tc.short, ok)
			if !ok {
				return
			}
			if len(first.Results) > 0 {
				first.Results[0].Emoji = "changed"
			}
			cached, hit := e.shortGet(key)
			require.True(t, hit)
			assert.Equal(t, fresh, cached)
			assert.Equal(t, fresh, e.Search(tc.q, tc.opts))
		})
	}
}

func withLimit(o Options) Options {
	if o.Limit <= 0 {
		o.Limit = DefaultLimit
	}
	return o
}

// TestShortCacheBounded: a full cache starts again empty.
func TestShortCacheBounded(t *testing.T) {
	var c shortCache
	for i := range shortCacheMax + 10 {
		c.put(shortKey{query: string(rune(0x4e00 + i))}, Output{Query: "x"}, nil)
	}
	assert.Len(t, c.m, 10)
	_, ok := c.m[shortKey{query: string(rune(0x4e00 + shortCacheMax + 9))}]
	assert.True(t, ok)
}
