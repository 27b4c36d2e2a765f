package fusion_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/emojisearch/emojisearch/engine/fusion"
)

func TestBest(t *testing.T) {
	rs := func() []fusion.Ranked[string] {
		return []fusion.Ranked[string]{{"c", 0.5, 2}, {"a", 0.9, 0}, {"d", 0.5, 1}, {"b", 0.7, 3}}
	}
	for _, c := range []struct {
		name  string
		limit int
		want  []string
	}{
		{"all, ties in arrival order", 10, []string{"a", "b", "d", "c"}},
		{"cut", 2, []string{"a", "b"}},
		{"none", 0, []string{}},
		{"negative", -1, []string{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, fusion.Best(rs(), c.limit))
		})
	}
	assert.Empty(t, fusion.Best[string](nil, 3))
}
