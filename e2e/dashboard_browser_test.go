package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/chatimport/chatfake"
	"github.com/emojisearch/emojisearch/service/webhooks/webhookstest"
)

// dashboardJSBudget is the bar: the dashboard's JavaScript, the
// libraries included, at most 80 kB min+gzip.
const dashboardJSBudget = 80_000

// TestDashboardBrowser is the dashboard journey in headless Chromium
// (dashboard/test/journey.mjs: Debian's chromium driven by playwright-core,
// an axe-core scan of every page): sign in, create an app, create a key and
// copy it, search with it, the usage chart shows the calls after the
// write-behind, upload an emoji by drag and drop and find it first in
// search, add a webhook to a receiver of this test and see the test
// delivery in the log, import from the team-chat fake, invite a member who accepts in a second browser,
// and delete the account. Without the tools it is skipped, except under
// CI, where it must run. E2E_SCREENSHOTS=dir keeps the screenshots
// (docs/dashboard-*.png are these).
func TestDashboardBrowser(t *testing.T) {
	t.Parallel() // a browser journey of its own account; runs over the others' waits
	root := repoRoot()
	node := browserTools(t, filepath.Join(root, "client", ".tools", "node_modules", "axe-core", "axe.min.js"))
	scripts, err := filepath.Glob(filepath.Join(root, "build", "assets", "dashboard", "*.js"))
	require.NoError(t, err)
	require.NotEmpty(t, scripts, "build.sh bundles the dashboard (scripts/install-dashboard.sh)")

	r := webhookstest.NewReceiver(t)
	shots := os.Getenv("E2E_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	emoji := filepath.Join(t.TempDir(), "zorblax.png")
	require.NoError(t, os.WriteFile(emoji, testPNG(t), 0o644))
	// The team-chat fake's workspace: one new emoji, one the journey
	// uploaded first (skipped as exists).
	slackToken := unique("xoxp-dash-")
	chat.SetSlack(slackToken, []chatfake.Emoji{{Name: "blobwave"}, {Name: "zorblax"}})

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(root, "dashboard", "test", "journey.mjs"), tgt.base, r.URL, emoji, shots, slackToken)
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	require.NoError(t, err, "browser journey on %s", tgt.name)

	var seen struct {
		OK      bool             `json:"ok"`
		Secret  string           `json:"secret"`
		Axe     map[string][]any `json:"axe"`
		Foreign []string         `json:"foreign"`
		Timings struct {
			FirstVisitMedianMs int64 `json:"firstVisitMedianMs"`
			AppsInteractiveMs  int64 `json:"appsInteractiveMs"`
		} `json:"timings"`
		Custom map[string]any `json:"customFirst"`
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &seen))
	assert.True(t, seen.OK)
	assert.Empty(t, seen.Foreign, "no request to anything but the same origin")
	assert.GreaterOrEqual(t, len(seen.Axe), 18, "axe-core scanned every page")
	assert.Equal(t, "custom", seen.Custom["source"])

	// The test event the dashboard sent reached the receiver, signed with
	// the secret the dashboard showed once.
	hits := r.Got("/hook")
	require.NotEmpty(t, hits, "the receiver got the test delivery")
	first := hits[0]
	assert.Equal(t, "webhook.test", first.Header.Get("Service-Event"))
	assert.Empty(t, webhookstest.Verify(seen.Secret, first.Header.Get("Service-Signature"), first.Body, first.At))

	// Every script of the app: app.js and the chunks it loads.
	size, gz := 0, 0
	for _, p := range scripts {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		size, gz = size+len(b), gz+gzipLen(t, b)
	}
	t.Logf("dashboard JS: %d files, %d bytes min, %d gzip; interactive: first visit %d ms (median of 5), apps page %d ms (signed in)",
		len(scripts), size, gz, seen.Timings.FirstVisitMedianMs, seen.Timings.AppsInteractiveMs)
	// The bar is 1 s on hostsim; this catches a regression without
	// failing on a busy shared machine (the measured figures are in
	// BENCHMARKS.md). wrangler dev is slower and is not held to it.
	if tgt.name == "hostsim" {
		assert.LessOrEqual(t, seen.Timings.FirstVisitMedianMs, int64(3000), "first visit interactive")
	}
	assert.LessOrEqual(t, gz, dashboardJSBudget, "dashboard JS min+gzip")

	for _, path := range []string{"/dashboard/", "/dashboard/apps/app_x/keys", "/dashboard/invite/tok"} {
		res := get(t, path)
		require.Equal(t, 200, res.Status, path)
		assert.Contains(t, res.Header.Get("Content-Type"), "text/html", path)
		assert.Contains(t, string(res.Body), `src="/dashboard/app.js"`, path)
		assert.Equal(t, "DENY", res.Header.Get("X-Frame-Options"), "%s: the asset server and the Worker agree", path)
	}
	assert.Equal(t, 404, get(t, "/dashboard/missing.js").Status, "a missing file is not the page")
}

// testPNG is a 32×32 orange square.
func testPNG(t *testing.T) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 32, 32))
	for y := 0; y < 32; y++ {
		for x := 0; x < 32; x++ {
			img.Set(x, y, color.NRGBA{230, 120, 20, 255})
		}
	}
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, img))
	return b.Bytes()
}

// gzipLen is the size of b after gzip -9.
func gzipLen(t *testing.T, b []byte) int {
	var out bytes.Buffer
	w, err := gzip.NewWriterLevel(&out, gzip.BestCompression)
	require.NoError(t, err)
	_, err = w.Write(b)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return out.Len()
}
