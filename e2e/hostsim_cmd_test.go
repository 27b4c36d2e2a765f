package e2e

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serveCmd runs `hostsim serve` on the diag build and waits until it answers.
func serveCmd(t *testing.T, state string, port int) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	root := repoRoot()
	cmd := exec.Command(filepath.Join(root, "build", "bin", "hostsim"), "serve",
		"--port", fmt.Sprint(port), "--state", state, "--no-crons",
		"--config", filepath.Join(root, "wrangler.toml"),
		"--wasm", filepath.Join(root, "build", "worker-diag", "app.wasm"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	eventually(t, 90*time.Second, func() bool { // a fresh state compiles the module: slow on a busy machine
		res, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/v1/health", port))
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == 200
	}, "hostsim serve did not answer")
	return cmd, &out
}

// SIGTERM finishes what is in flight and closes the stores: everything
// written before is there after a restart.
func TestHostsimServeStopsCleanlyAndKeepsData(t *testing.T) {
	if tgt.name != "hostsim" {
		t.Skip("a hostsim command test")
	}
	t.Parallel() // a hostsim process of its own
	state := t.TempDir()
	port, err := freePort()
	require.NoError(t, err)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	send := func(method, path, body string) *http.Response {
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		res, err := client.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		return res
	}

	cmd, out := serveCmd(t, state, port)
	require.Equal(t, 200, send("PUT", "/__diag/kv/persisted", "kept").StatusCode)
	require.Equal(t, 200, send("POST", "/__diag/d1/exec", `{"sql":"CREATE TABLE kept (v TEXT); INSERT INTO kept VALUES ('row')"}`).StatusCode)
	require.Equal(t, 200, send("PUT", "/__diag/r2/persisted.txt", "object").StatusCode)
	require.Equal(t, 200, send("POST", "/__diag/wait?key=late&ms=300", "").StatusCode)
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, cmd.Wait(), out.String())
	assert.Contains(t, out.String(), "shutting down")
	assert.Contains(t, out.String(), "GET /v1/health 200", "one log line per request")

	cmd, out = serveCmd(t, state, port)
	defer func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() }()
	get := func(path string) string {
		res, err := client.Get(base + path)
		require.NoError(t, err)
		defer res.Body.Close()
		var b bytes.Buffer
		_, _ = b.ReadFrom(res.Body)
		return b.String()
	}
	assert.Contains(t, get("/__diag/kv/persisted"), `"value":"kept"`)
	assert.Contains(t, get("/__diag/kv/late"), `"found":true`, "waitUntil work finished before shutdown")
	assert.Contains(t, get("/__diag/r2/persisted.txt"), `"body":"object"`)
	res, err := client.Post(base+"/__diag/d1/all", "application/json", strings.NewReader(`{"sql":"SELECT v FROM kept"}`))
	require.NoError(t, err)
	var b bytes.Buffer
	_, _ = b.ReadFrom(res.Body)
	res.Body.Close()
	assert.Contains(t, b.String(), `"v":"row"`, out.String())
}

// hostsim says in its log when it starts on fresh state, and where: a new
// state folder, and a store that went missing from an existing one.
func TestHostsimServeSaysWhenStateIsFresh(t *testing.T) {
	if tgt.name != "hostsim" {
		t.Skip("a hostsim command test")
	}
	t.Parallel() // a hostsim process of its own
	state := filepath.Join(t.TempDir(), "state")
	port, err := freePort()
	require.NoError(t, err)
	cmd, out := serveCmd(t, state, port)
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, cmd.Wait(), out.String())
	assert.Contains(t, out.String(), "hostsim: no state folder "+state+": creating it")
	assert.Contains(t, out.String(), "hostsim: D1 DB: no stored data at "+filepath.Join(state, "d1"))

	cmd, out = serveCmd(t, state, port)
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, cmd.Wait(), out.String())
	assert.NotContains(t, out.String(), "starting fresh", "a restart reuses the state")

	require.NoError(t, os.RemoveAll(filepath.Join(state, "d1")))
	cmd, out = serveCmd(t, state, port)
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, cmd.Wait(), out.String())
	assert.Contains(t, out.String(), "hostsim: D1 DB: no stored data at "+filepath.Join(state, "d1"))
	assert.NotContains(t, out.String(), "KV KV: no stored data", "only the missing store is fresh")
}

// Start-up errors carry one "hostsim:" prefix.
func TestHostsimErrorsCarryOnePrefix(t *testing.T) {
	if tgt.name != "hostsim" {
		t.Skip("a hostsim command test")
	}
	for _, args := range [][]string{
		{"--config", filepath.Join(t.TempDir(), "missing.toml")},
		{"--config", filepath.Join(repoRoot(), "wrangler.toml"), "--rate-limit-scale", "0"},
		{"--config", filepath.Join(repoRoot(), "wrangler.toml"), "--wasm", filepath.Join(t.TempDir(), "none.wasm")},
	} {
		cmd := exec.Command(filepath.Join(repoRoot(), "build", "bin", "hostsim"),
			append([]string{"serve", "--state", t.TempDir(), "--port", "0"}, args...)...)
		out, err := cmd.CombinedOutput()
		require.Error(t, err, "%v", args)
		last := strings.TrimSpace(string(out))
		last = last[strings.LastIndex(last, "\n")+1:]
		assert.True(t, strings.HasPrefix(last, "hostsim: "), "%v: %s", args, last)
		assert.Equal(t, 1, strings.Count(last, "hostsim:"), "%v: %s", args, last)
	}
}
