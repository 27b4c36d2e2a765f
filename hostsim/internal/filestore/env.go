package filestore

import (
	"crypto/rand"
	"errors"
	"io"
	"os"
	"time"
)

// Env is what a simulated binding takes from its host instead of reaching
// for globals: a clock and a random source, so tests move time forward and
// get the same ids every run (STYLE 8).
type Env struct {
	Now  func() time.Time
	Rand io.Reader
	// Log receives a line for every damaged file the store sets aside.
	Log io.Writer
}

// Config is how a store's Env is made: an immutable value (every With…
// returns a changed copy) that NewEnv checks as a whole. The store packages
// (kv, r2, cache) take it as their own Config, through OpenWithConfig.
type Config struct {
	now  func() time.Time
	rand io.Reader
	log  io.Writer
}

// NewConfig is the default: time.Now, crypto/rand and os.Stderr.
func NewConfig() Config { return Config{now: time.Now, rand: rand.Reader, log: os.Stderr} }

// WithLog sets where the lines about quarantined files go (nil: nowhere).
func (c Config) WithLog(w io.Writer) Config { c.log = w; return c }

// WithClock replaces time.Now.
func (c Config) WithClock(now func() time.Time) Config { c.now = now; return c }

// WithRand replaces crypto/rand.
func (c Config) WithRand(r io.Reader) Config { c.rand = r; return c }

// NewEnv makes the Env of c and reports every problem, including an empty
// directory name, at once.
func NewEnv(dir string, c Config) (Env, error) {
	env := Env{Now: c.now, Rand: c.rand, Log: c.log}
	if env.Log == nil {
		env.Log = io.Discard
	}
	var errs []error
	if dir == "" {
		errs = append(errs, errors.New("empty directory name"))
	}
	if env.Now == nil {
		errs = append(errs, errors.New("WithClock needs a clock function"))
	}
	if env.Rand == nil {
		errs = append(errs, errors.New("WithRand needs a reader"))
	}
	return env, errors.Join(errs...)
}
