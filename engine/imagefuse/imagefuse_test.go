package imagefuse

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/fusion"
)

var cal = fusion.Calibration{Floor: 0.4, Ceiling: 0.8}

func emojis(rs []Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Emoji
	}
	return out
}

func TestVariantKey(t *testing.T) {
	cases := []struct{ a, b string }{
		{"🏃‍♀️", "🏃"},
		{"🏃‍♂️", "🏃"},
		{"🏃‍➡️", "🏃"},
		{"🏃🏽‍♀️", "🏃"},
		{"👩‍🍳", "🧑‍🍳"},
		{"👨‍🍳", "🧑‍🍳"},
		{"❤️", "❤"},
	}
	for _, c := range cases {
		assert.Equal(t, VariantKey(c.b), VariantKey(c.a), c.a)
	}
	assert.NotEqual(t, VariantKey("🐱"), VariantKey("🐶"))
	assert.NotEqual(t, VariantKey("👨‍👩‍👧"), VariantKey("👨"), "families keep their members")
}

func TestFuse(t *testing.T) {
	cases := []struct {
		name     string
		in       Input
		limit    int
		want     []string // exact order when set
		excludes []string
	}{
		{name: "proposals in order", in: Input{Proposed: []string{"🐱", "😺"}}, limit: 8, want: []string{"🐱", "😺"}},
		{name: "agreeing evidence wins",
			in: Input{Proposed: []string{"🐶", "🐱"}, Keywords: [][]Hit{{{"🐱", 1}}}, Nearest: []Hit{{"🐱", 0.7}},
				Calibration: cal}, limit: 8, want: []string{"🐱", "🐶"}},
		{name: "unknown proposals dropped",
			in: Input{Proposed: []string{"🦄x", "🐱"}, Known: func(e string) bool { return e != "🦄x" }}, limit: 8,
			want: []string{"🐱"}},
		{name: "too little evidence dropped",
			in: Input{Keywords: [][]Hit{{{"🌵", 0.3}}}, Nearest: []Hit{{"🌲", 0.45}}, Calibration: cal}, limit: 8,
			excludes: []string{"🌵", "🌲"}},
		{name: "variants once",
			in:    Input{Proposed: []string{"🏃‍♀️", "🏃", "🏃‍♂️", "👟"}},
			limit: 8, want: []string{"🏃‍♀️", "👟"}},
		{name: "limit", in: Input{Proposed: []string{"🐱", "😺", "🐈"}}, limit: 2, want: []string{"🐱", "😺"}},
		{name: "nothing", in: Input{}, limit: 8, want: []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Fuse(c.in, c.limit)
			if c.want != nil {
				assert.Equal(t, c.want, emojis(got))
			}
			for _, e := range c.excludes {
				assert.NotContains(t, emojis(got), e)
			}
			for i, r := range got {
				assert.True(t, r.Score >= MinEvidence && r.Score <= 1, "%v", r)
				if i > 0 {
					assert.GreaterOrEqual(t, got[i-1].Score, r.Score)
				}
			}
		})
	}
}

func TestSemanticSource(t *testing.T) {
	got := Fuse(Input{Nearest: []Hit{{"🌅", 0.85}}, Proposed: []string{"🐱"}, Calibration: cal}, 8)
	require.Len(t, got, 2)
	for _, r := range got {
		assert.Equal(t, r.Emoji == "🌅", r.Semantic, r.Emoji)
	}
}
