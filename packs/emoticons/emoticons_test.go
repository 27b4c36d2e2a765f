package emoticons

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       map[string][]string
		err        string
	}{
		{"emoticons", "# c\n🙂 :-) (:\n\n❤️ ♡\n", map[string][]string{"🙂": {":-)", "(:"}, "❤": {"♡"}}, ""},
		{"none", "🙂", nil, "x.txt:1: 🙂 has no emoticons"},
		{"twice", "🙂 :-)\n🙂 =)", nil, "x.txt:2: 🙂 twice"},
		{"twice with and without FE0F", "❤️ ♡\n❤ <33", nil, "x.txt:2: ❤ twice"},
		{"pipe", "😐 :|", nil, `x.txt:1: an emoticon with "|" cannot be stored`},
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

func TestLoad(t *testing.T) {
	all, err := Load()
	require.NoError(t, err)
	assert.Equal(t, ":-)", all["🙂"][0])
	assert.Contains(t, all["😊"], "^_^")
	assert.Regexp(t, `^sha256:[0-9a-f]{64}$`, Hash())
}
