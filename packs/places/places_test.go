package places

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// TestParse: what a region key is (the line format: wordlines).
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       map[string][]string
		err        string
	}{
		{"words", "# c\nCL chilean\nNL dutch | holland \n", map[string][]string{"🇨🇱": {"chilean"}, "🇳🇱": {"dutch", "holland"}}, ""},
		{"lower code", "cl chilean", nil, `x.txt:1: "cl" is not a region code`},
		{"three letters", "CHL chilean", nil, `"CHL" is not a region code`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse("x.txt", tc.text)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestFlag(t *testing.T) {
	f, ok := Flag("CL")
	assert.True(t, ok)
	assert.Equal(t, "🇨🇱", f)
	for _, bad := range []string{"", "C", "cl", "C1", "CLX"} {
		_, ok := Flag(bad)
		assert.False(t, ok, bad)
	}
}

// TestLoad: the committed sources parse, and English names every flag's
// people ("chilean") or common name.
func TestLoad(t *testing.T) {
	all, err := Load(packfmt.Locales)
	require.NoError(t, err)
	_, err = Load([]string{"zh"})
	require.ErrorContains(t, err, "places: en.txt: not a pack locale")
	assert.Equal(t, []string{"chilean"}, all["en"]["🇨🇱"])
	assert.Contains(t, all["en"]["🇳🇱"], "holland")
	assert.Greater(t, len(all["en"]), 250)
	assert.Regexp(t, `^sha256:[0-9a-f]{64}$`, Hash())
}
