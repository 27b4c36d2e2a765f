package hostsim

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/emojisearch/emojisearch/hostsim/internal/gojs"
	"github.com/emojisearch/emojisearch/hostsim/internal/jsrt"
	"github.com/emojisearch/emojisearch/hostsim/internal/nodefs"
)

// Program is a plain Go js/wasm program (not a Worker) to run to its end,
// as Go's go_js_wasm_exec does with Node: test binaries and benchmarks run
// this way under hostsim (`go test -exec "hostsim run"`).
type Program struct {
	Wasm     string   // path of the .wasm
	Args     []string // os.Args[1:]
	Env      map[string]string
	Stdin    io.Reader
	Stdout   io.Writer
	Stderr   io.Writer
	CacheDir string // wazero compilation cache; "" for none
}

// Run executes p and returns its exit code.
func Run(ctx context.Context, p Program) (int, error) {
	wasm, err := os.ReadFile(p.Wasm)
	if err != nil {
		return 1, err
	}
	eng, err := gojs.NewEngine(ctx, wasm, p.CacheDir)
	if err != nil {
		return 1, err
	}
	defer eng.Close(ctx)
	rt := jsrt.New()
	console := jsrt.Console{Stdout: p.Stdout, Stderr: p.Stderr}
	rt.SetConsole(console)
	nodefs.Install(rt, p.Stdin, console)
	rt.OnUncaught = func(err error) { fmt.Fprintln(p.Stderr, "hostsim run:", err) }
	go rt.Run(ctx)
	defer rt.Close()

	exited := make(chan int, 1)
	started := make(chan error, 1)
	rt.Post(func() {
		inst, err := eng.Instantiate(ctx, rt)
		if err != nil {
			started <- err
			return
		}
		inst.OnExit(func(code int, err error) {
			if code < 0 {
				fmt.Fprintln(p.Stderr, "hostsim run:", err)
				code = 2
			}
			exited <- code
		})
		argv := append([]string{p.Wasm}, p.Args...)
		if err := inst.Start(ctx, argv, p.Env); err != nil && !inst.Exited() {
			started <- err
			return
		}
		started <- nil
	})
	if err := <-started; err != nil {
		return 1, err
	}
	select {
	case code := <-exited:
		return code, nil
	case <-ctx.Done():
		return 1, ctx.Err()
	}
}

// ProgramEnv picks the variables a test binary needs from the host
// environment; the js/wasm ABI has only 8 KiB for argv and environment.
func ProgramEnv() map[string]string {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case k == "HOME", k == "TMPDIR", k == "PWD", k == "USER", strings.HasPrefix(k, "GO"), strings.HasPrefix(k, "E2E_"):
			env[k] = v
		}
	}
	if _, ok := env["TMPDIR"]; !ok {
		env["TMPDIR"] = os.TempDir()
	}
	if wd, err := os.Getwd(); err == nil {
		env["PWD"] = wd
	}
	return env
}

// DefaultCacheDir is where `hostsim run` keeps compiled modules.
func DefaultCacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "hostsim-wazero")
	}
	return filepath.Join(dir, "hostsim-wazero")
}
