// Command hostsim runs the project's Workers module locally with no JS
// engine (see package hostsim).
//
//	hostsim serve [--port 8787] [--state .hostsim] [--config wrangler.toml] [--env NAME]
//	              [--rate-limit-scale N] [--no-crons] [--quiet] [--wasm PATH]
//	              [--sets-dir packs/.sets/upstream] [--sets-upstream URL]
//	hostsim run FILE.wasm [args...]
//
// `run` executes a plain Go js/wasm program (not a Worker) with the host's
// files, stdin and stdout, like Go's go_js_wasm_exec does with Node:
// GOOS=js GOARCH=wasm go test -exec "$PWD/build/bin/hostsim run" ./engine/...
//
// It listens on localhost, logs one line per request, and on SIGINT or
// SIGTERM finishes the requests in flight and their waitUntil work before
// closing every store.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/emojisearch/emojisearch/hostsim"
	"github.com/emojisearch/emojisearch/localai"
)

func main() {
	if len(os.Args) >= 3 && os.Args[1] == "run" {
		os.Exit(runProgram(os.Args[2], os.Args[3:]))
	}
	if len(os.Args) < 2 || os.Args[1] != "serve" {
		fmt.Fprintln(os.Stderr, "usage: hostsim serve [--port N] [--state DIR] [--config wrangler.toml] [--env NAME] [--rate-limit-scale N] [--no-crons] [--quiet] [--wasm PATH] [--var NAME:VALUE]...")
		fmt.Fprintln(os.Stderr, "       hostsim run FILE.wasm [args...]   (a plain Go js/wasm program, e.g. go test -exec \"hostsim run\")")
		os.Exit(2)
	}
	fs := flag.NewFlagSet("serve", flag.ExitOnError)
	port := fs.Int("port", 8787, "port to listen on (localhost)")
	state := fs.String("state", ".hostsim", "folder where bindings persist")
	config := fs.String("config", "wrangler.toml", "the project's wrangler.toml")
	env := fs.String("env", "", "[env.<name>] of wrangler.toml")
	scale := fs.Int("rate-limit-scale", 1, "multiply every rate limit (load tests and evaluation runs from one address)")
	noCrons := fs.Bool("no-crons", false, "do not fire triggers.crons on real time (/__scheduled still works)")
	quiet := fs.Bool("quiet", false, "no per-request log lines")
	wasm := fs.String("wasm", "", "run this module instead of the one wrangler.toml's main imports (for example the diag build)")
	aiPath := fs.String("ai-model", "", "bind [ai] to this local embedding model file (default: packs/models/glove-cldr.100.embm beside wrangler.toml, when there; \"none\": no embedding model)")
	visionPath := fs.String("vision-model", "", "bind [ai]'s vision model to this artwork index (default: packs/models/emoji-vision.noto.evis beside wrangler.toml, when there; \"none\": no vision model)")
	aiPort := fs.Int("ai-port", 0, "also serve the bound models as the Workers AI REST API on 127.0.0.1:N")
	aiAlias := fs.String("ai-alias", "", "more model names the embedding model answers to, comma-separated")
	setsDir := fs.String("sets-dir", DefaultSetsDir, "serve this folder as the local emoji sets upstream (SETS_UPSTREAM)")
	setsURL := fs.String("sets-upstream", "", "point SETS_UPSTREAM here instead of serving --sets-dir")
	vars := varFlag{}
	fs.Var(vars, "var", "NAME:VALUE: a var or secret over wrangler.toml and .dev.vars, as wrangler dev --var (repeatable)")
	_ = fs.Parse(os.Args[2:])

	err := setsUpstream(*setsDir, *setsURL, vars)
	var ai hostsim.AIModel
	if err == nil {
		ai, err = localAI(filepath.Dir(*config), *aiPath, *visionPath, *aiPort, *aiAlias)
	}
	if err == nil {
		err = run(*port, *state, *config, *env, *wasm, *scale, !*noCrons, *quiet, ai, vars)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, oneline(err))
		os.Exit(1)
	}
}

// oneline is err as the command prints it: one "hostsim: " prefix in
// front, whichever layer (the library prefixes its own errors) added it.
func oneline(err error) string {
	return "hostsim: " + strings.ReplaceAll(err.Error(), "hostsim: ", "")
}

// runProgram runs a plain Go js/wasm program to its end with the host's
// files, stdin and stdout, and returns its exit code.
func runProgram(wasm string, args []string) int {
	code, err := hostsim.Run(context.Background(), hostsim.Program{
		Wasm: wasm, Args: args, Env: hostsim.ProgramEnv(),
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		CacheDir: hostsim.DefaultCacheDir(),
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostsim run:", err)
		return 1
	}
	return code
}

// localAI binds the repository's local models (package localai) and, with
// --ai-port, serves them as the Workers AI REST API; nil when no model is
// bound.
func localAI(root, embedFlag, visionFlag string, port int, alias string) (hostsim.AIModel, error) {
	mux, ok, err := localai.Open(localai.Options{Root: root, Embed: embedFlag, Vision: visionFlag, Alias: alias})
	if err != nil {
		return nil, err
	}
	if !ok {
		if port != 0 || alias != "" {
			return nil, errors.New("--ai-port and --ai-alias need a model")
		}
		return nil, nil
	}
	if port != 0 {
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			return nil, err
		}
		srv := &http.Server{Handler: mux.Handler(), ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.Serve(ln) }()
		fmt.Fprintf(os.Stderr, "hostsim: Workers AI REST on http://%s/accounts/local/ai/run/<model>\n", ln.Addr())
	}
	return mux, nil
}

func run(port int, state, config, env, wasm string, scale int, crons, quiet bool, ai hostsim.AIModel, vars varFlag) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	start := time.Now()
	cfg := hostsim.NewConfig(config).WithStateDir(state).WithEnv(env).WithRateLimitScale(scale).WithCrons(crons)
	if quiet {
		cfg = cfg.WithLog(nil)
	}
	if wasm != "" {
		cfg = cfg.WithWasm(wasm)
	}
	if ai != nil {
		cfg = cfg.WithAI(ai)
	}
	for name, value := range vars {
		cfg = cfg.WithVar(name, value)
	}
	sim, err := hostsim.New(ctx, cfg)
	if err != nil {
		return err
	}
	defer sim.Close()
	if err := sim.Warm(ctx); err != nil {
		return fmt.Errorf("starting the module: %w", err)
	}
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: sim, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(os.Stderr, "hostsim: ready on http://%s in %s\n", ln.Addr(), time.Since(start).Round(time.Millisecond))
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	case <-ctx.Done():
		fmt.Fprintln(os.Stderr, "hostsim: shutting down")
		shutdown, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}
	return nil
}

// varFlag collects --var NAME:VALUE (split at the first colon, as
// wrangler dev does, so values may hold colons: URLs).
type varFlag map[string]string

func (v varFlag) String() string { return "" }

func (v varFlag) Set(s string) error {
	name, value, ok := strings.Cut(s, ":")
	if !ok || name == "" {
		return fmt.Errorf("--var %q: want NAME:VALUE", s)
	}
	v[name] = value
	return nil
}
