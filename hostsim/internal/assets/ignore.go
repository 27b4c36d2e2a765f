package assets

import (
	"regexp"
	"strings"
)

// ignoreRule is one line of a .assetsignore file, which uses .gitignore
// syntax. Supported: blank lines, "#" comments, "!" negation, a trailing "/"
// for folders only, a "/" inside or in front to anchor to the assets root,
// and the wildcards *, ?, [...] and **. Not supported: escaped trailing
// spaces and "\#"/"\!" escapes.
type ignoreRule struct {
	re      *regexp.Regexp
	negate  bool
	dirOnly bool
}

// parseIgnore reads .assetsignore text. The meta files are always ignored,
// as wrangler does.
func parseIgnore(text string) []ignoreRule {
	lines := []string{"/" + ignoreFile, "/" + headersFile, "/" + redirectsFile}
	lines = append(lines, strings.Split(text, "\n")...)
	var rules []ignoreRule
	for _, line := range lines {
		line = strings.TrimRight(line, " \t\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var r ignoreRule
		if strings.HasPrefix(line, "!") {
			r.negate, line = true, line[1:]
		}
		if strings.HasSuffix(line, "/") {
			r.dirOnly, line = true, strings.TrimRight(line, "/")
		}
		if line == "" {
			continue
		}
		anchored := strings.Contains(line, "/")
		line = strings.TrimPrefix(line, "/")
		expr := globToRegexp(line)
		if !anchored {
			expr = "(?:.*/)?" + expr
		}
		re, err := regexp.Compile("^" + expr + "$")
		if err != nil {
			continue // an unparsable class like "[" matches nothing, as in git
		}
		r.re = re
		rules = append(rules, r)
	}
	return rules
}

// globToRegexp translates one gitignore glob to a regular expression.
func globToRegexp(glob string) string {
	var b strings.Builder
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		switch {
		case strings.HasPrefix(glob[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(glob[i:], "/**") && i+3 == len(glob):
			b.WriteString("/.*")
			i += 2
		case strings.HasPrefix(glob[i:], "**"):
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			end := strings.IndexByte(glob[i+1:], ']')
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := glob[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// ignored reports whether a file (relative, "/"-separated, no leading "/")
// is left out. As in git, a file under an ignored folder stays ignored even
// if a later rule would re-include it.
func ignored(rules []ignoreRule, rel string) bool {
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		if match(rules, strings.Join(parts[:i], "/"), true) {
			return true
		}
	}
	return match(rules, rel, false)
}

// match applies the last rule matching the path.
func match(rules []ignoreRule, p string, isDir bool) bool {
	out := false
	for _, r := range rules {
		if r.dirOnly && !isDir {
			continue
		}
		if r.re.MatchString(p) {
			out = !r.negate
		}
	}
	return out
}
