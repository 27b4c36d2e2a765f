package writebehind

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/internal/testclock"
)

// fakeTimers records every delay armed; each wait ends when the test
// fires it (the JS timer firing in the request that armed it).
type fakeTimers struct {
	mu     sync.Mutex
	delays []time.Duration
	fire   []chan error
}

func (f *fakeTimers) timer(d time.Duration) func(context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := make(chan error, 1)
	f.delays = append(f.delays, d)
	f.fire = append(f.fire, ch)
	return func(ctx context.Context) error {
		select {
		case err := <-ch:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (f *fakeTimers) armed() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.delays...)
}

// fireLast ends the newest timer's wait with err.
func (f *fakeTimers) fireLast(err error) {
	f.mu.Lock()
	ch := f.fire[len(f.fire)-1]
	f.mu.Unlock()
	ch <- err
}

// counter is a source: n unwritten counts, written unless failing.
type counter struct {
	mu      sync.Mutex
	n       int
	written int
	writes  int
	fail    bool
}

func (c *counter) add() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *counter) flush(context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes++
	if c.fail {
		return errors.New("store down")
	}
	c.written += c.n
	c.n = 0
	return nil
}

func (c *counter) state() (unwritten, written, writes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n, c.written, c.writes
}

// background is a Runner standing in for waitUntil: tasks run on their
// own goroutine and wait() waits for all of them.
type background struct{ wg sync.WaitGroup }

func (b *background) run(ctx context.Context, fn func(context.Context)) {
	b.wg.Add(1)
	go func() { defer b.wg.Done(); fn(ctx) }()
}

func (b *background) wait() { b.wg.Wait() }

type fixture struct {
	w      *Writer
	clock  *testclock.Clock
	timers *fakeTimers
	src    *counter
	bg     *background
	errs   chan error
}

// every is the fixture's interval: the tests' times are written for 10 s
// (the default is shorter; the behaviour is the same at any interval).
const every = 10 * time.Second

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{
		clock:  testclock.New(time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)),
		timers: &fakeTimers{},
		src:    &counter{},
		bg:     &background{},
		errs:   make(chan error, 16),
	}
	var err error
	f.w, err = New(NewConfig().WithEvery(every).WithClock(f.clock.Now).WithTimer(f.timers.timer).
		WithErrorHook(func(err error) { f.errs <- err }))
	require.NoError(t, err)
	f.w.Add(f.src.flush)
	return f
}

// count is what a counting request does: count, then arm.
func (f *fixture) count(ctx context.Context) {
	f.src.add()
	f.w.Arm(ctx, f.bg.run)
}

func TestFirstCountWrittenAtOnceLaterOnesJoinOneWrite(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()

	f.count(ctx)
	f.bg.wait()
	_, written, _ := f.src.state()
	assert.Equal(t, 1, written, "the first count after a quiet interval is written at once")
	assert.Empty(t, f.timers.armed(), "no timer for an immediate write")

	f.clock.Add(3 * time.Second)
	for range 5 {
		f.count(ctx)
		f.clock.Add(time.Second)
	}
	assert.Equal(t, []time.Duration{7 * time.Second}, f.timers.armed(),
		"one write armed for the rest of the interval; the other requests arm nothing")
	unwritten, written, _ := f.src.state()
	assert.Equal(t, 5, unwritten)
	assert.Equal(t, 1, written)

	f.timers.fireLast(nil) // traffic stopped: the timer of the first request ends
	f.bg.wait()
	unwritten, written, writes := f.src.state()
	assert.Equal(t, 0, unwritten, "no count waits on a future request")
	assert.Equal(t, 6, written)
	assert.Equal(t, 2, writes)
}

func TestCountsDuringAWriteArmTheNext(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	f.count(ctx) // immediate write at 0 s
	f.bg.wait()

	f.clock.Add(2 * time.Second)
	f.count(ctx) // armed for 8 s
	f.clock.Add(8 * time.Second)
	f.timers.fireLast(nil)
	f.bg.wait()

	f.clock.Add(time.Second)
	f.count(ctx)
	assert.Equal(t, []time.Duration{8 * time.Second, 9 * time.Second}, f.timers.armed(),
		"the next write is the interval after the previous one began")
	f.timers.fireLast(nil)
	f.bg.wait()
	unwritten, written, _ := f.src.state()
	assert.Equal(t, 0, unwritten)
	assert.Equal(t, 3, written)

	f.clock.Add(time.Minute)
	f.count(ctx)
	f.bg.wait()
	assert.Len(t, f.timers.armed(), 2, "after a quiet minute the count is written at once")
}

func TestFailedWriteKeepsCountsRetriesOnceThenWaitsForTheNextCount(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	f.src.fail = true
	f.count(ctx)
	// The immediate write fails; the same task arms a retry after the
	// interval.
	require.Eventually(t, func() bool { return len(f.timers.armed()) == 1 }, time.Second, time.Millisecond)
	assert.Equal(t, []time.Duration{every}, f.timers.armed())
	f.count(ctx) // a write is armed (the retry): nothing new
	assert.Len(t, f.timers.armed(), 1)

	f.clock.Add(every)
	f.timers.fireLast(nil)
	f.bg.wait()
	unwritten, _, writes := f.src.state()
	assert.Equal(t, 2, unwritten, "a failed write keeps its counts")
	assert.Equal(t, 2, writes, "one retry, then the task ends")
	assert.Len(t, f.errs, 2)

	f.src.fail = false
	f.clock.Add(every)
	f.count(ctx)
	f.bg.wait()
	unwritten, written, _ := f.src.state()
	assert.Equal(t, 0, unwritten)
	assert.Equal(t, 3, written, "the next count writes the kept ones, once")
}

func TestALostTimerIsArmedAgain(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithCancel(t.Context())
	f.count(ctx)
	f.bg.wait()
	f.clock.Add(time.Second)
	f.count(ctx) // armed; this request's timer will never fire
	f.clock.Add(staleFactor*every - time.Second)
	f.count(t.Context())
	assert.Len(t, f.timers.armed(), 1, "still within the stale bound")
	f.clock.Add(time.Second)
	f.count(t.Context())
	assert.Len(t, f.timers.armed(), 1, "written at once: the last write began long ago")
	cancel() // the lost request ends: its task gives up without disarming the new write
	f.bg.wait()
	unwritten, written, _ := f.src.state()
	assert.Equal(t, 0, unwritten)
	assert.Equal(t, 4, written)
	assert.ErrorContains(t, <-f.errs, "never ran")
}

func TestFlushWritesEverySourceAndJoinsErrors(t *testing.T) {
	f := newFixture(t)
	other := &counter{fail: true}
	f.w.Add(other.flush)
	f.src.add()
	other.add()
	err := f.w.Flush(t.Context())
	require.ErrorContains(t, err, "store down")
	unwritten, written, _ := f.src.state()
	assert.Equal(t, 0, unwritten)
	assert.Equal(t, 1, written, "one failing source does not stop the others")
	n, _, _ := other.state()
	assert.Equal(t, 1, n)

	f.count(t.Context())
	assert.Len(t, f.timers.armed(), 1, "a flush starts the interval like a write")
}

func TestInlineRunner(t *testing.T) {
	f := newFixture(t)
	f.src.add()
	f.w.Arm(t.Context(), nil)
	_, written, _ := f.src.state()
	assert.Equal(t, 1, written)
}

// TestConcurrentArms: 50 goroutines count and arm while timers fire; at
// most one write is armed at a time and every count is written (-race).
func TestConcurrentArms(t *testing.T) {
	w, err := New(NewConfig().WithEvery(time.Millisecond))
	require.NoError(t, err)
	src := &counter{}
	w.Add(src.flush)
	bg := &background{}
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				src.add()
				w.Arm(t.Context(), bg.run)
			}
		}()
	}
	wg.Wait()
	bg.wait()
	w.Arm(t.Context(), bg.run) // the last counts may have found a write in flight
	bg.wait()
	unwritten, written, _ := src.state()
	assert.Equal(t, 0, unwritten)
	assert.Equal(t, 50*200, written)
}

func TestNewReportsEveryProblem(t *testing.T) {
	_, err := New(Config{})
	require.Error(t, err)
	for _, want := range []string{"interval", "clock", "timer"} {
		assert.Contains(t, err.Error(), want)
	}
}

func TestGoTimer(t *testing.T) {
	require.NoError(t, GoTimer(time.Millisecond)(t.Context()))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	require.ErrorIs(t, GoTimer(time.Hour)(ctx), context.Canceled)
}

func TestArmPendingArmsOnlyWithUnwrittenData(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	pending := func() bool { return f.src.n > 0 } // read under f.src.mu

	f.w.ArmPending(ctx, f.bg.run, &f.src.mu, pending)
	f.bg.wait()
	_, _, writes := f.src.state()
	assert.Equal(t, 0, writes, "nothing unwritten: no write")

	f.src.add()
	f.w.ArmPending(ctx, f.bg.run, &f.src.mu, pending)
	f.bg.wait()
	unwritten, written, writes := f.src.state()
	assert.Equal(t, []int{0, 1, 1}, []int{unwritten, written, writes}, "a count is written")
}
