package repocheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/packfmt"
)

// TestAddingALocale keeps README.md's "Adding a locale" checklist true both
// ways: every file it lists names every locale of the registry (or exists
// for each, for a <locale> path), and every file of the repository that
// holds a per-locale table, or is one locale's file, is listed.
func TestAddingALocale(t *testing.T) {
	listed := checklist(t)
	require.Greater(t, len(listed), 10, "the checklist's paths were found")
	for _, p := range listed {
		for _, file := range expand(t, p) {
			if !assert.FileExists(t, filepath.Join("../..", file), "listed in the checklist") {
				continue
			}
			if !strings.Contains(p, "<locale>") {
				assert.Empty(t, missingLocales(t, file), "%s lacks these locales", file)
			}
		}
	}
	unlisted := map[string]bool{}
	for _, file := range repoFiles(t) {
		if p := perLocalePattern(file); p != "" {
			if !slices.Contains(listed, p) && !unlisted[p] {
				unlisted[p] = true
				t.Errorf("%s is one locale's file: list %s in README.md's checklist", file, p)
			}
			continue
		}
		if tableFile(file) && len(missingLocales(t, file)) == 0 && !covered(listed, file) {
			t.Errorf("%s names every locale: list it in README.md's checklist (or derive it from packfmt.Registry)", file)
		}
	}
}

// checklist returns the paths in backquotes of the numbered list of
// README.md's "Adding a locale" section.
func checklist(t *testing.T) []string {
	_, sec, ok := strings.Cut(read(t, "README.md"), "\n## Adding a locale\n")
	require.True(t, ok, "README.md has the section")
	sec, _, _ = strings.Cut(sec, "\n## ")
	var list []string
	in := false
	for _, line := range strings.Split(sec, "\n") {
		if regexp.MustCompile(`^\d+\. `).MatchString(line) {
			in = true
		} else if in && !strings.HasPrefix(line, "   ") {
			break
		}
		if in {
			list = append(list, line)
		}
	}
	var paths []string
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(strings.Join(list, "\n"), -1) {
		if strings.Contains(m[1], "/") && strings.Contains(filepath.Base(m[1]), ".") {
			paths = append(paths, m[1])
		}
	}
	return paths
}

// expand returns the files a listed path names: a glob's matches, one
// file per locale for a <locale> path.
func expand(t *testing.T, p string) []string {
	if strings.Contains(p, "<locale>") {
		var out []string
		for _, loc := range packfmt.Locales {
			out = append(out, strings.ReplaceAll(p, "<locale>", loc))
		}
		return out
	}
	if !strings.Contains(p, "*") {
		return []string{p}
	}
	m, err := filepath.Glob(filepath.Join("../..", p))
	require.NoError(t, err)
	require.NotEmpty(t, m, p)
	for i := range m {
		m[i], _ = filepath.Rel("../..", m[i])
	}
	return m
}

// missingLocales lists the registry's codes a file does not name: as a
// quoted string or a key or line head in code and data, as a word in prose.
func missingLocales(t *testing.T, file string) []string {
	src := read(t, file)
	var missing []string
	for _, loc := range packfmt.Locales {
		re := `["'` + "`" + `]` + loc + `["'` + "`" + `]|(?m)^\s*` + loc + `[: ]`
		if strings.HasSuffix(file, ".md") {
			re = `\b` + loc + `\b`
		}
		if !regexp.MustCompile(re).MatchString(src) {
			missing = append(missing, loc)
		}
	}
	return missing
}

// perLocalePattern returns the <locale> pattern of one locale's file
// (engine/testdata/sanity/bn.tsv: engine/testdata/sanity/<locale>.tsv).
func perLocalePattern(file string) string {
	base := filepath.Base(file)
	for _, loc := range packfmt.Locales {
		if strings.HasPrefix(base, loc+".") {
			return filepath.ToSlash(filepath.Join(filepath.Dir(file), "<locale>"+strings.TrimPrefix(base, loc)))
		}
	}
	return ""
}

// tableFile is a file that may hold a per-locale table: source and data,
// not tests, which may cover every locale without being a table to extend,
// nor the client goldens, which engine/cmd/goldens writes.
func tableFile(file string) bool {
	switch {
	case strings.HasSuffix(file, "_test.go"), strings.Contains(file, ".test."), strings.Contains(file, "testdata/"), file == "client/test/goldens.json":
		return false
	}
	return slices.Contains([]string{".go", ".js", ".mjs", ".ts", ".json", ".txt", ".toml"}, filepath.Ext(file))
}

// covered reports whether a listed path or glob names the file.
func covered(listed []string, file string) bool {
	for _, p := range listed {
		if ok, _ := filepath.Match(p, file); ok {
			return true
		}
	}
	return false
}

// repoFiles lists the repository's own files, not the built packs, installed
// tools or generated state.
func repoFiles(t *testing.T) []string {
	skip := []string{".git", "node_modules", "build", ".tools", ".npm", ".npm-model", ".sets", ".pkgtools", ".apitools", ".hostsim", ".state", ".wrangler", "dist"}
	var out []string
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		if d.IsDir() && slices.Contains(skip, d.Name()) {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel("../..", path)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	require.NoError(t, err)
	return out
}
