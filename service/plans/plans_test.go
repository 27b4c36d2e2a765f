package plans

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTable(t *testing.T) {
	all := All()
	require.Len(t, all, 4)
	for i, l := range all {
		assert.Equal(t, i, l.Rank, l.Name)
		if i > 0 {
			prev := all[i-1]
			assert.Greater(t, l.MaxApps, prev.MaxApps, l.Name)
			assert.Greater(t, l.SemanticCalls, prev.SemanticCalls, l.Name)
			assert.Greater(t, l.ImageClassifications, prev.ImageClassifications, l.Name)
			assert.Greater(t, l.CustomEmoji, prev.CustomEmoji, l.Name)
		}
	}
}

func TestSpecRules(t *testing.T) {
	cases := []struct {
		plan                               string
		teams, analytics, tenants, imports bool
		window, rows                       int
	}{
		{Free, false, false, false, false, 0, 7},
		{Solo, false, false, false, false, 0, 7},
		{Pro, true, true, false, true, 30, 30},
		{Scale, true, true, true, true, 365, 365},
	}
	for _, c := range cases {
		l, err := Get(c.plan)
		require.NoError(t, err)
		assert.Equal(t, c.teams, l.Teams, c.plan)
		assert.Equal(t, c.analytics, l.Analytics, c.plan)
		assert.Equal(t, c.tenants, l.Tenants, c.plan)
		assert.Equal(t, c.tenants, l.Webhooks, c.plan)
		assert.Equal(t, c.imports, l.CustomEmojiImport, c.plan)
		assert.Equal(t, c.window, l.AnalyticsWindowDays, c.plan)
		assert.Equal(t, c.rows, l.QueryRowDays, c.plan)
	}
	free, _ := Get(Free)
	assert.Zero(t, free.CustomEmoji, "spec 2: limit 0 on Free")
}

func TestCheapest(t *testing.T) {
	l, ok := Cheapest(0, func(l Limits) bool { return l.CustomEmoji > 0 })
	require.True(t, ok)
	assert.Equal(t, Solo, l.Name, "upload on Free: plan solo")
	l, ok = Cheapest(0, func(l Limits) bool { return l.CustomEmojiImport })
	require.True(t, ok)
	assert.Equal(t, Pro, l.Name, "import below Pro: plan pro")
	_, ok = Cheapest(4, func(Limits) bool { return true })
	assert.False(t, ok)
	_, err := Get("gold")
	assert.Error(t, err)
}
