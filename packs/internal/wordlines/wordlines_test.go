package wordlines

import (
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// upperKey takes an upper-case word as the key, as the packages' keys do
// (a region code, an emoji) in their own way.
func upperKey(field string) (key, label string, err error) {
	if field == "" || field[0] < 'A' || field[0] > 'Z' {
		return "", "", fmt.Errorf("%q is not a key", field)
	}
	return field, "key " + field, nil
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       map[string][]string
		err        string
	}{
		{"words, comments and blank lines", "# c\n\nAB one | two words \nCD three\n", map[string][]string{"AB": {"one", "two words"}, "CD": {"three"}}, ""},
		{"the keycap #️⃣ is no comment", "#\uFE0F one", nil, `x.txt:1: "#️" is not a key`},
		{"a bad key", "ab one", nil, `x.txt:1: "ab" is not a key`},
		{"no words", "AB", nil, "x.txt:1: key AB has no words"},
		{"empty words", "AB | ", nil, "key AB has no words"},
		{"twice", "AB one\nAB two", nil, "x.txt:2: key AB twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse("x.txt", tc.text, upperKey)
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
	fsys := fstest.MapFS{"data/en.txt": {Data: []byte("AB one\n")}, "data/fr.txt": {Data: []byte("CD deux\nCD trois\n")}}
	got, err := Load(fsys, "data/*.txt", "pkg", []string{"en", "fr"}, upperKey)
	require.ErrorContains(t, err, "pkg: fr.txt:2: key CD twice")
	assert.Equal(t, []string{"one"}, got["en"]["AB"])
	_, err = Load(fsys, "data/*.txt", "pkg", []string{"fr"}, upperKey)
	require.ErrorContains(t, err, "pkg: en.txt: not a pack locale")
}
