package apikey

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNew(t *testing.T) {
	for _, kind := range []string{Publishable, Secret} {
		k, err := New(kind)
		require.NoError(t, err)
		got, ok := KindOf(k.Full)
		assert.True(t, ok, k.Full)
		assert.Equal(t, kind, got)
		assert.Equal(t, Hash(k.Full), k.Hash)
		assert.True(t, strings.HasPrefix(k.Full, k.Hint))
		assert.Len(t, k.Hash, 64)
		other, _ := New(kind)
		assert.NotEqual(t, k.Full, other.Full)
	}
	_, err := New("admin")
	assert.ErrorIs(t, err, ErrKind)
}

func TestKindOf(t *testing.T) {
	body := strings.Repeat("aZ09", 8)
	cases := []struct {
		key  string
		kind string
		ok   bool
	}{
		{"pk_live_" + body, Publishable, true},
		{"sk_live_" + body, Secret, true},
		{"pk_test_" + body, "", false},
		{"pk_live_" + body[:31], Publishable, false},
		{"pk_live_" + body + "x", Publishable, false},
		{"sk_live_" + body[:31] + "-", Secret, false},
		{"sk_live_" + body[:31] + "'", Secret, false},
		{"", "", false},
		{"Bearer sk_live_" + body, "", false},
	}
	for _, c := range cases {
		kind, ok := KindOf(c.key)
		assert.Equal(t, c.kind, kind, c.key)
		assert.Equal(t, c.ok, ok, c.key)
	}
}
