package filestore

import (
	"crypto/rand"
	"errors"
	"io"
	"time"
)

// Env is what a simulated binding takes from its host instead of reaching
// for globals: a clock and a random source, so tests move time forward and
// get the same ids every run (STYLE 8).
type Env struct {
	Now  func() time.Time
	Rand io.Reader
}

// Option changes an Env. The binding packages expose it as their own
// Option, with WithClock and WithRand.
type Option func(*Env)

// WithClock replaces time.Now.
func WithClock(now func() time.Time) Option {
	return func(e *Env) { e.Now = now }
}

// WithRand replaces crypto/rand.
func WithRand(r io.Reader) Option {
	return func(e *Env) { e.Rand = r }
}

// NewEnv applies opts over time.Now and crypto/rand and reports every
// problem, including an empty directory name, at once.
func NewEnv(dir string, opts []Option) (Env, error) {
	env := Env{Now: time.Now, Rand: rand.Reader}
	for _, opt := range opts {
		opt(&env)
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
