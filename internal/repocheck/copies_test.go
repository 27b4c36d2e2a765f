package repocheck

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// read returns a file of the repository.
func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../..", path))
	require.NoError(t, err)
	return string(b)
}

// code finds the locale codes in a list; a test's own item regexp may
// replace it.
var code = regexp.MustCompile(`\b([a-z]{2})\b`)

// TestLocaleListCopies: every list of the pack locales outside Go source
// names packfmt.Registry's codes; the lists marked ordered in its order.
func TestLocaleListCopies(t *testing.T) {
	tests := []struct {
		file    string
		list    string // a regexp whose first group is the list; every match is checked
		ordered bool
		item    string // a regexp whose first group is a code of the list (default: code)
	}{
		{"client/src/locale.js", `export const LOCALES = Object\.freeze\(\[([^\]]*)\]\)`, true, ""},
		{"client/src/format.js", `export const LOCALES = /\* @__PURE__ \*/ Object\.freeze\(\[([^\]]*)\]\)`, true, ""},
		{"client/index.d.ts", `export const LOCALES: readonly \[([^\]]*)\]`, true, ""},
		{"client/test/helpers.js", `export const LOCALES = \[([^\]]*)\]`, true, ""},
		{"client/src/picker/strings.js", `(?s)const T = \{(.*?)\n\}`, false, `(?m)^  ([a-z]{2}):`},
		{"client/README.md", `\| .locale. \| one of ((?:[a-z]{2} )+)\(`, false, ""},
		{"docs/openapi.json", `"One of ((?:[a-z]{2}, )+)or a BCP 47 tag`, true, ""},
		{"packs/FORMAT.md", "Locales: `([a-z ]+)`", true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			item := code
			if tc.item != "" {
				item = regexp.MustCompile(tc.item)
			}
			matches := regexp.MustCompile(tc.list).FindAllStringSubmatch(read(t, tc.file), -1)
			require.NotEmpty(t, matches, "the list is where the test looks for it: %s", tc.list)
			for _, m := range matches {
				var got []string
				for _, c := range item.FindAllStringSubmatch(m[1], -1) {
					got = append(got, c[1])
				}
				if !tc.ordered {
					slices.Sort(got)
				}
				assert.Equal(t, want(tc.ordered), got)
			}
		})
	}
}

// want is the registry's codes, sorted unless ordered.
func want(ordered bool) []string {
	w := slices.Clone(packfmt.Locales)
	if !ordered {
		slices.Sort(w)
	}
	return w
}

// TestOpenAPILocaleEnums: the document's enums of locales are the registry.
func TestOpenAPILocaleEnums(t *testing.T) {
	var doc any
	require.NoError(t, json.Unmarshal([]byte(read(t, "docs/openapi.json")), &doc))
	found := 0
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if e, ok := v["enum"].([]any); ok && slices.Contains(e, any("zh")) {
				found++
				var got []string
				for _, x := range e {
					s, _ := x.(string)
					got = append(got, s)
				}
				assert.Equal(t, packfmt.Locales, got)
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	assert.Positive(t, found, "the document has locale enums")
}

// TestLanguageAliasCopies: the client reads the same ISO 639-2/3 codes and
// deprecated tags as search (packfmt.Registry's aliases).
func TestLanguageAliasCopies(t *testing.T) {
	m := regexp.MustCompile(`const ALIASES = \{([^}]*)\}`).FindStringSubmatch(read(t, "client/src/locale.js"))
	require.NotNil(t, m)
	got := map[string]string{}
	for _, p := range regexp.MustCompile(`(\w+): '(\w+)'`).FindAllStringSubmatch(m[1], -1) {
		got[p[1]] = p[2]
	}
	assert.Equal(t, packfmt.LanguageAliases(), got)
}

// TestPackVersionCopies: the pack version outside Go source is the one of
// packfmt.DefaultVersion (packs/dist.Version is that constant).
func TestPackVersionCopies(t *testing.T) {
	tests := []struct{ file, pattern string }{
		{"wrangler.toml", `(?m)^PACK_VERSION = "([^"]*)"`},
		{"packs/FORMAT.md", "The current version is `([^`]*)`"},
		{"packs/FORMAT.md", `"packVersion": ?"([^"]*)"`},
	}
	for _, tc := range tests {
		t.Run(tc.file+" "+tc.pattern, func(t *testing.T) {
			matches := regexp.MustCompile(tc.pattern).FindAllStringSubmatch(read(t, tc.file), -1)
			require.NotEmpty(t, matches)
			for _, m := range matches {
				assert.Equal(t, packfmt.DefaultVersion, m[1])
			}
		})
	}
}

// TestRegistry: codes are two-letter and unique, English first, and no alias
// is a code or names two locales.
func TestRegistry(t *testing.T) {
	require.Equal(t, "en", packfmt.Locales[0])
	seen := map[string]bool{}
	for _, l := range packfmt.Registry {
		assert.Regexp(t, `^[a-z]{2}$`, l.Code)
		assert.False(t, seen[l.Code], "%s twice", l.Code)
		seen[l.Code] = true
	}
	for _, l := range packfmt.Registry {
		for _, a := range l.Aliases {
			assert.Regexp(t, `^[a-z]{2,3}$`, a)
			assert.False(t, seen[a], "%s is a code or another locale's alias", a)
			seen[a] = true
		}
	}
}
