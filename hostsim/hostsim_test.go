package hostsim

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	echoOnce sync.Once
	echoPath string
	echoErr  error
)

// echoWasm builds the protocol-only test module of package isolate.
func echoWasm(t *testing.T) string {
	t.Helper()
	echoOnce.Do(func() {
		dir, err := os.MkdirTemp("", "hostsim-echo")
		if err != nil {
			echoErr = err
			return
		}
		echoPath = filepath.Join(dir, "echo.wasm")
		cmd := exec.Command("go", "build", "-o", echoPath, "./internal/isolate/testdata/echo")
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		if out, err := cmd.CombinedOutput(); err != nil {
			echoErr = err
			echoPath = string(out)
		}
	})
	require.NoError(t, echoErr, echoPath)
	return echoPath
}

// project writes a wrangler.toml (and optional .dev.vars) into a temp dir.
func project(t *testing.T, toml, devVars string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "wrangler.toml"), []byte(toml), 0o644))
	if devVars != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, ".dev.vars"), []byte(devVars), 0o644))
	}
	return filepath.Join(dir, "wrangler.toml")
}

func start(t *testing.T, cfg Config) *Simulator {
	t.Helper()
	sim, err := New(context.Background(), cfg.WithWasm(echoWasm(t)).
		WithStateDir(t.TempDir()).
		WithCompilationCache(filepath.Join(os.TempDir(), "hostsim-test-cache")).
		WithLog(nil))
	require.NoError(t, err)
	t.Cleanup(sim.Close)
	return sim
}

func body(t *testing.T, sim *Simulator, path string) string {
	t.Helper()
	rec := httptest.NewRecorder()
	sim.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://localhost"+path, nil))
	require.Equal(t, 200, rec.Code, rec.Body.String())
	return rec.Body.String()
}

func TestConfigProblemsReportedTogether(t *testing.T) {
	_, err := New(context.Background(), NewConfig("").WithTimeout(-1).WithRateLimitScale(0))
	require.Error(t, err)
	for _, want := range []string{"wrangler.toml", "timeout", "scale"} {
		assert.Contains(t, err.Error(), want)
	}
}

func TestWasmOfEntry(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "worker.mjs")
	require.NoError(t, os.WriteFile(main, []byte("import \"./wasm_exec.js\";\nimport mod from './app.wasm';\n"), 0o644))
	got, err := wasmOfEntry(main)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "app.wasm"), got)

	require.NoError(t, os.WriteFile(main, []byte("export default {}"), 0o644))
	_, err = wasmOfEntry(main)
	assert.ErrorContains(t, err, "imports no .wasm")
}

func TestVarsDevVarsAndOverrides(t *testing.T) {
	toml := "name = \"t\"\nmain = \"w.mjs\"\ncompatibility_date = \"2026-10-01\"\n[vars]\nGREETING = \"from-toml\"\n"
	sim := start(t, NewConfig(project(t, toml, "")))
	assert.Contains(t, body(t, sim, "/"), "greeting=from-toml")

	sim = start(t, NewConfig(project(t, toml, "GREETING=\"from-dev-vars\"\n")))
	assert.Contains(t, body(t, sim, "/"), "greeting=from-dev-vars", ".dev.vars wins over [vars]")

	sim = start(t, NewConfig(project(t, toml, "GREETING=from-dev-vars\n")).WithVar("GREETING", "from-flag"))
	assert.Contains(t, body(t, sim, "/"), "greeting=from-flag")
}

func TestScheduledRoutes(t *testing.T) {
	toml := "name = \"t\"\nmain = \"w.mjs\"\ncompatibility_date = \"2026-10-01\"\n"
	sim := start(t, NewConfig(project(t, toml, "")))
	for _, path := range []string{"/__scheduled?cron=*+*+*+*+*", "/cdn-cgi/local/scheduled"} {
		assert.Equal(t, "Ran scheduled event", body(t, sim, path))
	}
	assert.Contains(t, body(t, sim, "/scheduled"), "/scheduled=2")
}

// Crons fire on the clock: the loop waits for the next matching minute
// (here a fake clock that jumps straight there).
func TestCronsFireOnTime(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 11, 23, 3, 16, 30, 0, time.UTC)
	fired := make(chan struct{}, 3)
	cronTime = cronClock{
		now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now },
		// The first three waits end at once (three days pass); later ones
		// never end, so the loop then idles until Close.
		after: func(d time.Duration) <-chan time.Time {
			select {
			case fired <- struct{}{}:
			default:
				return nil
			}
			mu.Lock()
			now = now.Add(d)
			mu.Unlock()
			ch := make(chan time.Time, 1)
			ch <- now
			return ch
		},
	}
	t.Cleanup(func() { cronTime = cronClock{now: time.Now, after: time.After} })
	toml := "name = \"t\"\nmain = \"w.mjs\"\ncompatibility_date = \"2026-10-01\"\n[triggers]\ncrons = [\"17 3 * * *\"]\n"
	sim := start(t, NewConfig(project(t, toml, "")))
	var got string
	require.Eventually(t, func() bool {
		got = body(t, sim, "/scheduled")
		return strings.Contains(got, "/scheduled=3")
	}, 5*time.Second, 20*time.Millisecond, "three days, one run each at 03:17")
}

func TestRunPlainProgram(t *testing.T) {
	out := filepath.Join(t.TempDir(), "prog.wasm")
	cmd := exec.Command("go", "build", "-o", out, "./testdata/prog")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	msg, err := cmd.CombinedOutput()
	require.NoError(t, err, string(msg))

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "input.txt"), []byte("from file, "), 0o644))
	var stdout, stderr strings.Builder
	code, err := Run(context.Background(), Program{
		Wasm: out, Args: []string{dir}, Env: map[string]string{"GREETING": "hi"},
		Stdin: strings.NewReader("from stdin"), Stdout: &stdout, Stderr: &stderr,
	})
	require.NoError(t, err)
	assert.Equal(t, 3, code, stderr.String())
	assert.Equal(t, "files=[input.txt output.txt] missing=true env=hi cwd-set=true\n", stdout.String())
	written, err := os.ReadFile(filepath.Join(dir, "output.txt"))
	require.NoError(t, err)
	assert.Equal(t, "from file, from stdin", string(written))
}

// The request log never holds a credential taken in a path (issue 27:
// invite tokens were written in full); ids, file names and hexcode
// sequences stay readable.
func TestRedactPath(t *testing.T) {
	cases := []struct{ in, want string }{
		{"/api/invites/Qm9vZ3lfdG9rZW5fMTIzNDU2Nzg5MF9hYmNkZWZnaGlqaw/accept", "/api/invites/[redacted]/accept"},
		{"/x/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "/x/[redacted]"},
		{"/v1/tenants/sk_live_Ab1Ab1Ab1Ab1Ab1Ab1Ab1Ab1Ab1Ab1xy", "/v1/tenants/[redacted]"},
		{"/api/apps/app_1f2e3d4c5b6a79881f2e3d4c/keys", "/api/apps/app_1f2e3d4c5b6a79881f2e3d4c/keys"},
		{"/v1/sets/noto/1f468-200d-1f469-200d-1f467-200d-1f466.svg", "/v1/sets/noto/1f468-200d-1f469-200d-1f467-200d-1f466.svg"},
		{"/x/1f468-200d-1f469-200d-1f467-200d-1f466", "/x/1f468-200d-1f469-200d-1f467-200d-1f466"},
		{"/v1/pack/2026.12.1/pack.en.json", "/v1/pack/2026.12.1/pack.en.json"},
		{"/api/invites/abcdefghijklmnopqrstuvwxyzabcdefghijkl/accept", "/api/invites/[redacted]/accept"},
		{"/v1/tenants/customer-42/emoji/party_parrot", "/v1/tenants/customer-42/emoji/party_parrot"},
		{"/", "/"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, RedactPath(c.in), c.in)
	}
}
