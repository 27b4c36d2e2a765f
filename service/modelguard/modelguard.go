// Package modelguard puts a deadline and a circuit breaker around every
// outbound model call (the embedding backend, the vision model), so a
// backend that accepts a request and never answers costs one deadline, not
// one per request.
//
// Why: a Workers AI call that hangs held /v1/search for 60 s and ended in
// the runtime's 500; a refused call degraded in 0.09 s (issue 31). The
// deadline turns a hang into the same fast failure, and the routes degrade
// as spec 1 says. The breaker remembers the failure: after a deadline, or
// after Failures failures in a row, calls fail at once with ErrOpen for
// CoolDown; then one call goes through as a probe (others still fail
// fast) and its outcome closes or reopens the breaker.
//
// Timers: the deadline is waited for with a Timer armed by the calling
// request (the worker passes a JS setTimeout: Go timers share one JS timer
// armed in whichever request ran last, PROTOCOL.md rule 1). The lock is
// held for a few fields only, never across the call (rule 2).
package modelguard

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/emojisearch/emojisearch/service/writebehind"
)

// ErrDeadline reports a call that did not answer within the deadline.
var ErrDeadline = errors.New("modelguard: the model did not answer within the deadline")

// ErrOpen reports a call refused at once because the breaker is open.
var ErrOpen = errors.New("modelguard: circuit open after the model failed")

// Timer starts a delay of d now, in the calling request, and returns a
// wait for its end that gives up (with ctx's error) when ctx ends first:
// write-behind's timer, which the worker arms with jsutil.After.
type Timer = writebehind.Timer

// Defaults, chosen from measurements (docs/benchmarks-history.md, issue 31): the local
// embedding model answers through the REST path in a few ms at p99 on
// both targets and Workers AI's bge-m3 in a few hundred; 1 s keeps a
// hung backend's search under the 2 s bar. The vision model takes
// seconds, so it has its own (classify.VisionDeadline).
const (
	DefaultDeadline = time.Second
	DefaultCoolDown = 5 * time.Second
	DefaultFailures = 5
	// DefaultFresh is how long an outcome answers Check without a probe.
	DefaultFresh = 30 * time.Second
)

// Config of a Breaker: an immutable value, each With… returns a copy, and
// New checks it.
type Config struct {
	name     string
	deadline time.Duration
	coolDown time.Duration
	failures int
	fresh    time.Duration
	now      func() time.Time
	timer    Timer
}

// NewConfig returns the defaults: a 1 s deadline, open for 5 s after a
// deadline or 5 failures in a row, wall clock and Go timers.
func NewConfig(name string) Config {
	return Config{name: name, deadline: DefaultDeadline, coolDown: DefaultCoolDown,
		failures: DefaultFailures, fresh: DefaultFresh, now: time.Now, timer: writebehind.GoTimer}
}

// WithDeadline sets how long one call may take.
func (c Config) WithDeadline(d time.Duration) Config { c.deadline = d; return c }

// WithCoolDown sets how long the breaker stays open before a probe.
func (c Config) WithCoolDown(d time.Duration) Config { c.coolDown = d; return c }

// WithFailures sets how many failures in a row open the breaker (a
// deadline opens it at once).
func (c Config) WithFailures(n int) Config { c.failures = n; return c }

// WithFresh sets how long the last outcome answers Check.
func (c Config) WithFresh(d time.Duration) Config { c.fresh = d; return c }

// WithClock sets the clock, so tests move time instead of sleeping.
func (c Config) WithClock(now func() time.Time) Config { c.now = now; return c }

// WithTimer sets how the deadline is waited for (the worker's JS timer).
func (c Config) WithTimer(t Timer) Config { c.timer = t; return c }

// State is the breaker's position.
type State int

// The breaker's states.
const (
	Closed   State = iota // calls go through
	Open                  // calls fail at once until the cool-down ends
	HalfOpen              // one probe is in flight; other calls fail at once
)

func (s State) String() string {
	return [...]string{"closed", "open", "half-open"}[s]
}

// Breaker guards the calls to one model. It is safe for concurrent use.
type Breaker struct {
	cfg Config

	mu        sync.Mutex
	state     State
	fails     int       // failures in a row
	openUntil time.Time // when Open ends
	lastAt    time.Time // when the last call ended
	lastOK    bool
}

// New checks c and returns a closed Breaker, reporting every problem at
// once.
func New(c Config) (*Breaker, error) {
	var errs []error
	if c.deadline <= 0 {
		errs = append(errs, fmt.Errorf("modelguard: deadline %v is not positive", c.deadline))
	}
	if c.coolDown <= 0 {
		errs = append(errs, fmt.Errorf("modelguard: cool-down %v is not positive", c.coolDown))
	}
	if c.failures < 1 {
		errs = append(errs, fmt.Errorf("modelguard: failures %d is under 1", c.failures))
	}
	if c.fresh < 0 {
		errs = append(errs, fmt.Errorf("modelguard: freshness %v is negative", c.fresh))
	}
	if c.now == nil {
		errs = append(errs, errors.New("modelguard: no clock"))
	}
	if c.timer == nil {
		errs = append(errs, errors.New("modelguard: no timer"))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return &Breaker{cfg: c}, nil
}

// Deadline is the longest a call may take.
func (b *Breaker) Deadline() time.Duration { return b.cfg.deadline }

// State reports the breaker's position now.
func (b *Breaker) State() State {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state == Open && !b.cfg.now().Before(b.openUntil) {
		return HalfOpen // the next call is a probe
	}
	return b.state
}

// Call runs fn with a context that ends at the deadline. It fails at once
// with ErrOpen while the breaker is open (or a probe is in flight), and
// with an error wrapping ErrDeadline when the deadline ends the call (an
// answer that comes anyway counts as one). A call its caller cancelled
// counts neither way.
func (b *Breaker) Call(ctx context.Context, fn func(ctx context.Context) error) error {
	if err := b.admit(); err != nil {
		return err
	}
	cctx, cancel := context.WithCancelCause(ctx)
	wait := b.cfg.timer(b.cfg.deadline)
	go func() {
		if wait(cctx) == nil {
			cancel(ErrDeadline)
		}
	}()
	err := fn(cctx)
	cancel(nil)
	timedOut := err != nil && errors.Is(context.Cause(cctx), ErrDeadline) && ctx.Err() == nil
	if timedOut {
		err = fmt.Errorf("%s: %w (%v)", b.cfg.name, ErrDeadline, b.cfg.deadline)
	}
	b.record(err, timedOut, ctx.Err() != nil)
	return err
}

// Guard runs fn through b and wraps every failure not already wrapped in
// sentinel (the caller's backend error, as meaning.ErrBackend), so the
// caller matches one error whatever failed: the backend, the deadline or
// the open breaker.
func Guard[T any](ctx context.Context, b *Breaker, sentinel error, fn func(ctx context.Context) (T, error)) (T, error) {
	var out T
	err := b.Call(ctx, func(ctx context.Context) (err error) {
		out, err = fn(ctx)
		return err
	})
	switch {
	case err == nil:
		return out, nil
	case errors.Is(err, sentinel):
		return out, err
	}
	return out, fmt.Errorf("%w: %w", sentinel, err)
}

// admit lets a call through or refuses it with ErrOpen.
func (b *Breaker) admit() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch b.state {
	case Open:
		if b.cfg.now().Before(b.openUntil) {
			return fmt.Errorf("%s: %w", b.cfg.name, ErrOpen)
		}
		b.state = HalfOpen // this call is the probe
	case HalfOpen:
		return fmt.Errorf("%s: %w (a probe is in flight)", b.cfg.name, ErrOpen)
	}
	return nil
}

// record moves the breaker after a call.
func (b *Breaker) record(err error, timedOut, cancelled bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.cfg.now()
	switch {
	case err == nil:
		b.state, b.fails = Closed, 0
	case cancelled && !timedOut:
		if b.state == HalfOpen {
			b.state = Open // the probe told nothing: probe again next time
		}
		return
	default:
		b.fails++
		if timedOut || b.fails >= b.cfg.failures || b.state == HalfOpen {
			b.state, b.openUntil = Open, now.Add(b.cfg.coolDown)
		}
	}
	b.lastAt, b.lastOK = now, err == nil
}

// Check reports whether the model answers: false while the breaker is
// open; else the last call's outcome when it ended within the freshness
// window; else the outcome of probe, run as a guarded call. /v1/health
// asks it, so monitors see the meaning tier as searches do.
func (b *Breaker) Check(ctx context.Context, probe func(ctx context.Context) error) bool {
	b.mu.Lock()
	open := b.state == Open && b.cfg.now().Before(b.openUntil)
	known := !b.lastAt.IsZero() && b.cfg.now().Sub(b.lastAt) < b.cfg.fresh
	ok := b.lastOK
	b.mu.Unlock()
	switch {
	case open:
		return false
	case known:
		return ok
	}
	return b.Call(ctx, probe) == nil
}
