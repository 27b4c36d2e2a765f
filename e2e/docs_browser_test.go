package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocsBrowser opens the API reference at /docs/ in headless Chromium
// (e2e/browser/docs.mjs): it renders /openapi.json with the vendored
// renderer, no request leaves the origin, a call from the page reaches the
// Worker and axe-core finds nothing serious. Skipped without the tools
// (scripts/install-client-tools.sh, scripts/install-api-tools.sh) except
// under CI. E2E_DOCS_SCREENSHOT=path keeps the screenshot.
func TestDocsBrowser(t *testing.T) {
	t.Parallel() // reads static pages only
	root := repoRoot()
	node := browserTools(t, filepath.Join(root, ".apitools", "node_modules", "axe-core"))
	shot := os.Getenv("E2E_DOCS_SCREENSHOT")
	if shot == "" {
		shot = filepath.Join(t.TempDir(), "docs.png")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, filepath.Join(root, "e2e", "browser", "docs.mjs"), tgt.base, shot).CombinedOutput()
	t.Logf("%s", out)
	require.NoError(t, err, "docs page on %s", tgt.name)

	// /docs reaches the page; the renderer is served by the Worker's origin.
	r := get(t, "/docs/")
	require.Equal(t, 200, r.Status)
	assert.Contains(t, r.Header.Get("Content-Type"), "text/html")
	js := get(t, "/docs/scalar.js")
	require.Equal(t, 200, js.Status)
	assert.Greater(t, len(js.Body), 100_000)
}
