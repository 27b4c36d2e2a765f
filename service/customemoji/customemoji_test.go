package customemoji

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/internal/testclock"
)

type source struct {
	emoji map[string][]accounts.CustomEmoji
	reads atomic.Int32
	fail  bool
}

func (s *source) CustomEmojiOf(_ context.Context, appID string) ([]accounts.CustomEmoji, error) {
	s.reads.Add(1)
	if s.fail {
		return nil, errors.New("D1 unavailable")
	}
	return s.emoji[appID], nil
}

func fixture() *source {
	return &source{emoji: map[string][]accounts.CustomEmoji{
		"app1": {
			{ID: "e1", Shortcode: "party_parrot", Aliases: []string{"celebrate", "parrot dance"}},
			{ID: "e2", Shortcode: "shipit", Aliases: []string{"ship it"}},
			{ID: "e3", Shortcode: "shipit", Aliases: []string{"launch"}, TenantExternalID: "acme"},
			{ID: "e4", Shortcode: "acme_logo", TenantExternalID: "acme"},
		},
	}}
}

func ids(ms []Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

func TestMatchRules(t *testing.T) {
	cases := []struct {
		name, tenant, query string
		want                []string
	}{
		{"exact alias", "", "celebrate", []string{"e1"}},
		{"shortcode with spaces", "", "party parrot", []string{"e1"}},
		{"alias normalised like a query", "", "  Ship IT! ", []string{"e2"}},
		{"prefix while typing", "", "par", []string{"e1"}},
		{"one character is no prefix", "", "p", nil},
		{"tenant emoji replaces the app-wide one", "acme", "shipit", []string{"e3"}},
		{"tenant emoji of another tenant unseen", "", "acme logo", nil},
		{"tenant's own", "acme", "acme logo", []string{"e4"}},
		{"unknown tenant: app-wide only", "globex", "shipit", []string{"e2"}},
		{"no match", "", "zebra", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := New(NewConfig(fixture()))
			ms, has, err := x.Match(context.Background(), "app1", c.tenant, c.query, 10)
			require.NoError(t, err)
			assert.True(t, has)
			assert.Equal(t, c.want, ids(ms))
		})
	}
}

func TestExactBeforePrefixAndLimit(t *testing.T) {
	src := &source{emoji: map[string][]accounts.CustomEmoji{"a": {
		{ID: "p", Shortcode: "catnip"}, {ID: "x", Shortcode: "cat"}, {ID: "q", Shortcode: "catalog"},
	}}}
	ms, _, err := New(NewConfig(src)).Match(context.Background(), "a", "", "cat", 2)
	require.NoError(t, err)
	assert.Equal(t, []string{"x", "q"}, ids(ms), "exact first, then by shortcode, cut to limit")
	assert.Equal(t, 1.0, ms[0].Score)
}

func TestAppWithoutEmoji(t *testing.T) {
	ms, has, err := New(NewConfig(fixture())).Match(context.Background(), "app2", "", "cat", 10)
	require.NoError(t, err)
	assert.False(t, has)
	assert.Empty(t, ms)
}

func TestCopyIsAtMost60sOld(t *testing.T) {
	src := fixture()
	clock := testclock.New(time.Unix(1_800_000_000, 0))
	x := New(NewConfig(src).WithClock(clock.Now))
	ctx := context.Background()
	_, _, err := x.Match(ctx, "app1", "", "celebrate", 10)
	require.NoError(t, err)
	clock.Add(59 * time.Second)
	_, _, _ = x.Match(ctx, "app1", "", "celebrate", 10)
	assert.EqualValues(t, 1, src.reads.Load(), "reused within a minute")
	clock.Add(2 * time.Second)
	_, _, _ = x.Match(ctx, "app1", "", "celebrate", 10)
	assert.EqualValues(t, 2, src.reads.Load(), "read again after a minute")

	src.fail = true
	clock.Add(time.Minute)
	_, _, err = x.Match(ctx, "app1", "", "celebrate", 10)
	assert.Error(t, err)
}

func TestForget(t *testing.T) {
	src := fixture()
	x := New(NewConfig(src).WithClock(testclock.New(time.Unix(1_800_000_000, 0)).Now))
	ctx := context.Background()
	_, _, err := x.Match(ctx, "app1", "", "celebrate", 10)
	require.NoError(t, err)
	x.Forget("other")
	_, _, _ = x.Match(ctx, "app1", "", "celebrate", 10)
	assert.EqualValues(t, 1, src.reads.Load(), "another app's change keeps this copy")
	x.Forget("app1")
	_, _, _ = x.Match(ctx, "app1", "", "celebrate", 10)
	assert.EqualValues(t, 2, src.reads.Load(), "read again at once after a change")
}
