// Package hostsim runs a Go Workers module locally with no JS engine: the
// same .wasm, wrangler.toml, migrations and assets that `wrangler deploy`
// ships, on wazero, with a real local store behind every binding (SQLite for
// D1, files for KV, R2 and the Cache API) persisted under a state folder.
//
// It knows the Workers platform and the entry protocol
// (worker/entry/PROTOCOL.md), never the routes of the service it runs.
package hostsim

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// Config describes a simulator. It is an immutable value: every With...
// returns a changed copy, and New checks it as a whole.
type Config struct {
	configPath string
	envName    string
	stateDir   string
	wasmPath   string
	cacheDir   string
	log        io.Writer
	stdout     io.Writer
	stderr     io.Writer
	timeout    time.Duration
	rateScale  int
	vars       map[string]string
	aiModel    AIModel
	runCrons   bool
}

// NewConfig starts from the project's wrangler.toml at path.
func NewConfig(path string) Config {
	return Config{
		configPath: path,
		stateDir:   ".hostsim",
		log:        os.Stderr,
		stdout:     os.Stdout,
		stderr:     os.Stderr,
		timeout:    60 * time.Second,
		rateScale:  1,
		runCrons:   true,
	}
}

func (c Config) clone() Config {
	vars := make(map[string]string, len(c.vars))
	for k, v := range c.vars {
		vars[k] = v
	}
	c.vars = vars
	return c
}

// WithEnv selects an [env.<name>] of wrangler.toml.
func (c Config) WithEnv(name string) Config { c = c.clone(); c.envName = name; return c }

// WithStateDir sets where stores persist (default ".hostsim").
func (c Config) WithStateDir(dir string) Config { c = c.clone(); c.stateDir = dir; return c }

// WithWasm overrides the module; by default it is the .wasm the `main`
// entry imports.
func (c Config) WithWasm(path string) Config { c = c.clone(); c.wasmPath = path; return c }

// WithCompilationCache sets wazero's on-disk cache (default: <state>/wazero).
func (c Config) WithCompilationCache(dir string) Config { c = c.clone(); c.cacheDir = dir; return c }

// WithLog sets where the one-line-per-request log goes (nil: nowhere).
func (c Config) WithLog(w io.Writer) Config { c = c.clone(); c.log = w; return c }

// WithConsole routes the Worker's stdout/stderr.
func (c Config) WithConsole(stdout, stderr io.Writer) Config {
	c = c.clone()
	c.stdout, c.stderr = stdout, stderr
	return c
}

// WithTimeout bounds one event before it fails as hung (default 60 s).
func (c Config) WithTimeout(d time.Duration) Config { c = c.clone(); c.timeout = d; return c }

// WithRateLimitScale multiplies every rate limit: the documented switch for
// load tests and evaluation runs from one address (default 1: the limits of
// wrangler.toml).
func (c Config) WithRateLimitScale(n int) Config { c = c.clone(); c.rateScale = n; return c }

// WithVar sets a var or secret as .dev.vars would (wins over both files).
func (c Config) WithVar(name, value string) Config { c = c.clone(); c.vars[name] = value; return c }

// WithAI binds the [ai] binding to a local model. Without one the binding is
// left out of env, so the Worker sees no embedding backend.
func (c Config) WithAI(m AIModel) Config { c = c.clone(); c.aiModel = m; return c }

// WithCrons turns firing triggers.crons on real time on or off (default on;
// /__scheduled works either way).
func (c Config) WithCrons(on bool) Config { c = c.clone(); c.runCrons = on; return c }

func (c Config) problems() []error {
	var errs []error
	if c.configPath == "" {
		errs = append(errs, errors.New("hostsim: no wrangler.toml path"))
	}
	if c.stateDir == "" {
		errs = append(errs, errors.New("hostsim: empty state directory"))
	}
	if c.timeout <= 0 {
		errs = append(errs, fmt.Errorf("hostsim: timeout %v must be positive", c.timeout))
	}
	if c.rateScale < 1 {
		errs = append(errs, fmt.Errorf("hostsim: rate limit scale %d must be at least 1", c.rateScale))
	}
	return errs
}

// AIModel is a local stand-in for a Workers AI model: it receives the
// inputs of env.AI.run(model, inputs) as JSON-like Go values and returns the
// output the same way, in the model's Workers AI shape.
type AIModel interface {
	Run(ctx context.Context, model string, inputs any) (any, error)
}

var wasmImport = regexp.MustCompile(`import\s+\w+\s+from\s+["']([^"']+\.wasm)["']`)

// wasmOfEntry finds the module the JS entry imports, as wrangler's bundler
// would resolve it.
func wasmOfEntry(mainPath string) (string, error) {
	src, err := os.ReadFile(mainPath)
	if err != nil {
		return "", fmt.Errorf("hostsim: reading main %s: %w (run ./build.sh first?)", mainPath, err)
	}
	m := wasmImport.FindSubmatch(src)
	if m == nil {
		return "", fmt.Errorf("hostsim: main %s imports no .wasm module", mainPath)
	}
	return filepath.Join(filepath.Dir(mainPath), string(m[1])), nil
}
