// Package writebehind is the one delayed write of an instance: counters
// kept in memory (metering now, analytics later) are written to D1 about
// every second (DefaultEvery) while the instance is busy, and within a
// second of the first unwritten count when traffic stops (spec 1, Metering
// rule 5, with issue 31's shorter interval).
//
// Why a request keeps the write alive: a Worker has no background of its
// own. Go timers are not an option (one shared JS timer armed in whichever
// request ran last; PROTOCOL.md rule 1), and an idle isolate is evicted
// without notice. So the request that makes a count unwritten arms the
// write: it creates a JS timer in its own context (Timer) and waits for it
// inside its own waitUntil (Runner), then writes. No count waits on a
// future request, and at most one write is armed per instance: a request
// that finds one armed does nothing, its counts go with that write.
//
// The delay is what is left of the interval since the last write began:
// the first count after a quiet interval is written at once, later ones
// join a write at most the interval after the previous one. A request
// therefore lives at most the interval (plus one retry) past its response,
// well inside the 30 s Workers gives waitUntil.
//
// What can still be lost, and its bound:
//   - A process killed (kill -9, an isolate evicted or crashed) before its
//     armed write ran loses the counts of that write: at most one interval
//     of the instance's counts (1 s of traffic), plus those of a write in
//     flight whose result never came back.
//   - A write that fails keeps its counts (the sources merge them back); it
//     is retried once after the interval in the same waitUntil, then the
//     counts wait for the next request that counts. A store down for longer
//     than that on an instance that then goes quiet and is evicted loses
//     them.
//   - A graceful stop (SIGTERM to hostsim, which drains waitUntil work)
//     loses nothing: the armed write runs before the process exits.
//   - A write applied by the store whose answer is lost (a timeout after
//     the commit) is retried and counted twice; D1 offers no idempotency
//     key to prevent that.
//
// Locks are held only for a few fields, never across a timer or a store
// call (PROTOCOL.md rule 2).
package writebehind

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Runner runs fn after the response, keeping the request alive until fn
// returns (the worker passes a wrapper around ctx.waitUntil). A nil
// Runner runs fn inline.
type Runner func(ctx context.Context, fn func(ctx context.Context))

// Timer starts a delay of d now, in the calling request, and returns a
// wait for its end. The worker arms a JS setTimeout (so the timer belongs
// to the request that arms it); natively a Go timer does.
type Timer func(d time.Duration) (wait func(ctx context.Context) error)

// Source writes every unwritten count of one kind (metering, analytics).
// It must keep its counts when it fails, for the next write.
type Source func(ctx context.Context) error

// DefaultEvery is the write interval. Spec 1 (Metering rule 5) says about
// every 10 s; issue 31 made it 1 s so a killed instance loses at most about
// a second of counts (RATIONALE.md, "Write-behind metering", has the
// measured bound and the write cost).
const DefaultEvery = time.Second

// staleFactor: an armed write whose wait has not ended after this many
// intervals is taken for lost (its request was cancelled and its timer
// will never fire), so the next request arms a new one.
const staleFactor = 3

// Config of a Writer: an immutable value, each With… returns a copy, and
// New checks it.
type Config struct {
	every   time.Duration
	now     func() time.Time
	timer   Timer
	onError func(error)
}

// NewConfig returns the defaults: every second, wall clock, Go timers.
func NewConfig() Config {
	return Config{every: DefaultEvery, now: time.Now, timer: GoTimer}
}

// WithEvery sets the least time between the starts of two writes.
func (c Config) WithEvery(d time.Duration) Config {
	c.every = d
	return c
}

// WithClock sets the clock, so tests move time instead of sleeping.
func (c Config) WithClock(now func() time.Time) Config {
	c.now = now
	return c
}

// WithTimer sets how a delay is waited for (the worker's JS timer).
func (c Config) WithTimer(t Timer) Config {
	c.timer = t
	return c
}

// WithErrorHook is told about failed writes and lost timers (the counts
// are kept), for logs and metrics.
func (c Config) WithErrorHook(fn func(error)) Config {
	c.onError = fn
	return c
}

// GoTimer waits with a Go timer: right for native processes, never in
// the Worker (PROTOCOL.md rule 1).
func GoTimer(d time.Duration) func(ctx context.Context) error {
	t := time.NewTimer(d)
	return func(ctx context.Context) error {
		defer t.Stop()
		select {
		case <-t.C:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Writer schedules the instance's writes. It is safe for concurrent use.
type Writer struct {
	every   time.Duration
	now     func() time.Time
	timer   Timer
	onError func(error)

	mu        sync.Mutex
	sources   []Source
	armed     bool
	armedAt   time.Time
	gen       uint64    // counts arms, so a lost task never disarms a newer write
	lastWrite time.Time // when the last write began; zero before the first
}

// New checks c and returns a Writer, reporting every problem at once.
func New(c Config) (*Writer, error) {
	var errs []error
	if c.every <= 0 {
		errs = append(errs, fmt.Errorf("writebehind: interval %v is not positive", c.every))
	}
	if c.now == nil {
		errs = append(errs, errors.New("writebehind: no clock"))
	}
	if c.timer == nil {
		errs = append(errs, errors.New("writebehind: no timer"))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return &Writer{every: c.every, now: c.now, timer: c.timer, onError: c.onError}, nil
}

// Add registers a source; every write writes every source, in the order
// added.
func (w *Writer) Add(s Source) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sources = append(w.sources, s)
}

// Arm makes sure a write is armed: call it from the request that made a
// count unwritten, with that request's Runner. When a write is already
// armed it returns at once; otherwise it starts the timer now, in this
// request, and hands the wait and the write to run.
func (w *Writer) Arm(ctx context.Context, run Runner) {
	now := w.now()
	w.mu.Lock()
	if w.armed && now.Sub(w.armedAt) < staleFactor*w.every {
		w.mu.Unlock()
		return
	}
	lost := w.armed
	w.armed, w.armedAt = true, now
	w.gen++
	gen := w.gen
	delay := w.delayLocked(now)
	w.mu.Unlock()
	if lost {
		w.report(errors.New("writebehind: an armed write never ran (its request ended); armed again"))
	}
	w.schedule(ctx, run, gen, delay, true)
}

// ArmPending is Arm for a source that knows whether it holds unwritten
// data: it arms only when pending, read under the source's own lock mu,
// reports some. It is the MaybeFlush of every source (metering, analytics).
func (w *Writer) ArmPending(ctx context.Context, run Runner, mu sync.Locker, pending func() bool) {
	mu.Lock()
	due := pending()
	mu.Unlock()
	if due {
		w.Arm(ctx, run)
	}
}

// delayLocked is what is left of the interval since the last write began.
func (w *Writer) delayLocked(now time.Time) time.Duration {
	if w.lastWrite.IsZero() {
		return 0
	}
	return min(max(w.every-now.Sub(w.lastWrite), 0), w.every)
}

// schedule waits delay (its timer started now), then writes; a failed
// write is retried once after the interval when retry is set.
func (w *Writer) schedule(ctx context.Context, run Runner, gen uint64, delay time.Duration, retry bool) {
	var wait func(context.Context) error
	if delay > 0 {
		wait = w.timer(delay)
	}
	task := func(ctx context.Context) {
		if wait != nil {
			if err := wait(ctx); err != nil {
				w.disarm(gen)
				w.report(fmt.Errorf("writebehind: timer: %w", err))
				return
			}
		}
		if err := w.write(ctx, gen); err != nil && retry {
			if gen, ok := w.rearm(); ok {
				// The timer starts here, still inside the request that
				// armed the write: this goroutine was just woken by its
				// store call.
				w.schedule(ctx, nil, gen, w.every, false)
			}
		}
	}
	if run == nil {
		task(ctx)
		return
	}
	run(ctx, task)
}

// write disarms (so counts made from now on arm the next write), then
// writes every source, reporting each failure.
func (w *Writer) write(ctx context.Context, gen uint64) error {
	w.mu.Lock()
	if w.gen == gen {
		w.armed = false
	}
	w.lastWrite = w.now()
	sources := w.sources
	w.mu.Unlock()
	var errs []error
	for _, s := range sources {
		if err := s(ctx); err != nil {
			errs = append(errs, err)
			w.report(err)
		}
	}
	return errors.Join(errs...)
}

// rearm claims the armed slot for a retry; false when a newer request
// already armed a write (which will carry the kept counts).
func (w *Writer) rearm() (uint64, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.armed {
		return 0, false
	}
	w.armed, w.armedAt = true, w.now()
	w.gen++
	return w.gen, true
}

// disarm gives up the armed slot if it is still gen's.
func (w *Writer) disarm(gen uint64) {
	w.mu.Lock()
	if w.gen == gen {
		w.armed = false
	}
	w.mu.Unlock()
}

func (w *Writer) report(err error) {
	if w.onError != nil {
		w.onError(err)
	}
}

// Flush writes every source now (cron, shutdown), whether or not a write
// is armed; an armed write still runs and finds less to do.
func (w *Writer) Flush(ctx context.Context) error {
	w.mu.Lock()
	w.lastWrite = w.now()
	sources := w.sources
	w.mu.Unlock()
	var errs []error
	for _, s := range sources {
		errs = append(errs, s(ctx))
	}
	return errors.Join(errs...)
}
