package wrangler

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// dotenvLine is the line grammar of the dotenv package wrangler uses for
// .dev.vars: KEY=value or KEY: value, an optional "export ", values in
// single, double or back quotes (which may span lines), and "#" comments
// after unquoted values or on their own line.
var dotenvLine = regexp.MustCompile("(?m)^\\s*(?:export\\s+)?([\\w.-]+)(?:\\s*=\\s*?|:\\s+?)" +
	"(\\s*'(?:\\\\'|[^'])*'|\\s*\"(?:\\\\\"|[^\"])*\"|\\s*`(?:\\\\`|[^`])*`|[^#\\r\\n]+)?\\s*(?:#.*)?$")

// ParseDevVars reads .dev.vars text as dotenv does: values are trimmed,
// matching outer quotes are removed, and only double-quoted values get "\n"
// and "\r" turned into line breaks. A later line wins over an earlier one.
// Lines that are not assignments are skipped.
func ParseDevVars(text string) map[string]string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	out := map[string]string{}
	for _, m := range dotenvLine.FindAllStringSubmatch(text, -1) {
		key, value := m[1], strings.TrimSpace(m[2])
		quoted := len(value) >= 2 && strings.IndexByte("'\"`", value[0]) >= 0 && value[len(value)-1] == value[0]
		if quoted {
			if value[0] == '"' {
				value = strings.NewReplacer(`\n`, "\n", `\r`, "\r").Replace(value[1 : len(value)-1])
			} else {
				value = value[1 : len(value)-1]
			}
		}
		out[key] = value
	}
	return out
}

// LoadDevVars reads a .dev.vars file. A missing file is an error for which
// errors.Is(err, fs.ErrNotExist) holds.
func LoadDevVars(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("wrangler: %w", err)
	}
	return ParseDevVars(string(b)), nil
}

// DevVarsPath finds the secrets file `wrangler dev` would read next to the
// config: ".dev.vars.<env>" when env is set and that file exists, else
// ".dev.vars". It reports false when neither exists.
func DevVarsPath(dir, env string) (string, bool) {
	if env != "" {
		p := filepath.Join(dir, ".dev.vars."+env)
		if fileExists(p) {
			return p, true
		}
	}
	p := filepath.Join(dir, ".dev.vars")
	return p, fileExists(p)
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
