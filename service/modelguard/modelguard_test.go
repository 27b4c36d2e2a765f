package modelguard_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/internal/testclock"
	"github.com/emojisearch/emojisearch/service/modelguard"
)

// expired is a Timer whose deadline has always passed: a call that waits
// for its context is ended by the deadline, with no sleeping.
func expired(time.Duration) func(context.Context) error {
	return func(context.Context) error { return nil }
}

// never is a Timer whose deadline never comes.
func never(time.Duration) func(context.Context) error {
	return func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }
}

// hang is a backend that accepts the call and never answers.
func hang(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }

func ok(context.Context) error { return nil }

var errRefused = errors.New("connection refused")

func refused(context.Context) error { return errRefused }

func newBreaker(t *testing.T, clock *testclock.Clock, timer modelguard.Timer) *modelguard.Breaker {
	t.Helper()
	b, err := modelguard.New(modelguard.NewConfig("embed").WithClock(clock.Now).WithTimer(timer).
		WithCoolDown(5 * time.Second).WithFailures(3).WithFresh(30 * time.Second))
	require.NoError(t, err)
	return b
}

func TestAHangCostsOneDeadline(t *testing.T) {
	clock := testclock.New(time.Unix(1_800_000_000, 0))
	b := newBreaker(t, clock, expired)
	err := b.Call(context.Background(), hang)
	require.ErrorIs(t, err, modelguard.ErrDeadline)
	assert.Equal(t, modelguard.Open, b.State())

	calls := 0
	for range 10 {
		err := b.Call(context.Background(), func(ctx context.Context) error { calls++; return hang(ctx) })
		require.ErrorIs(t, err, modelguard.ErrOpen)
	}
	assert.Zero(t, calls, "an open breaker never calls the backend")

	clock.Add(5 * time.Second)
	assert.Equal(t, modelguard.HalfOpen, b.State())
	require.ErrorIs(t, b.Call(context.Background(), hang), modelguard.ErrDeadline, "the probe hangs too")
	assert.Equal(t, modelguard.Open, b.State(), "a failed probe reopens")
	clock.Add(5 * time.Second)
	require.NoError(t, b.Call(context.Background(), ok))
	assert.Equal(t, modelguard.Closed, b.State(), "an answered probe closes")
}

func TestFailuresInARowOpen(t *testing.T) {
	clock := testclock.New(time.Unix(1_800_000_000, 0))
	b := newBreaker(t, clock, never)
	for range 2 {
		require.ErrorIs(t, b.Call(context.Background(), refused), errRefused)
	}
	require.NoError(t, b.Call(context.Background(), ok), "a success resets the count")
	for range 3 {
		require.ErrorIs(t, b.Call(context.Background(), refused), errRefused)
	}
	require.ErrorIs(t, b.Call(context.Background(), ok), modelguard.ErrOpen)
}

func TestOneProbeAtATime(t *testing.T) {
	clock := testclock.New(time.Unix(1_800_000_000, 0))
	b := newBreaker(t, clock, expired)
	require.ErrorIs(t, b.Call(context.Background(), hang), modelguard.ErrDeadline)
	clock.Add(5 * time.Second)

	// The probe waits on a gate and then answers (an answer counts even
	// past the deadline); a second call meanwhile fails at once.
	gate, entered := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		assert.NoError(t, b.Call(context.Background(), func(ctx context.Context) error {
			close(entered)
			<-gate
			return nil
		}))
	}()
	<-entered
	require.ErrorIs(t, b.Call(context.Background(), ok), modelguard.ErrOpen)
	close(gate)
	wg.Wait()
	assert.Equal(t, modelguard.Closed, b.State())
}

func TestCallerCancelCountsNeitherWay(t *testing.T) {
	clock := testclock.New(time.Unix(1_800_000_000, 0))
	b := newBreaker(t, clock, never)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 5 {
		require.ErrorIs(t, b.Call(ctx, hang), context.Canceled)
	}
	assert.Equal(t, modelguard.Closed, b.State())
}

// The real Go timer ends a hung call near the deadline.
func TestGoTimerDeadline(t *testing.T) {
	b, err := modelguard.New(modelguard.NewConfig("vision").WithDeadline(30 * time.Millisecond))
	require.NoError(t, err)
	start := time.Now()
	require.ErrorIs(t, b.Call(context.Background(), hang), modelguard.ErrDeadline)
	assert.Less(t, time.Since(start), 2*time.Second)
	assert.Equal(t, 30*time.Millisecond, b.Deadline())
}

func TestCheck(t *testing.T) {
	clock := testclock.New(time.Unix(1_800_000_000, 0))
	b := newBreaker(t, clock, expired)
	probes := 0
	probe := func(ok bool) func(context.Context) error {
		return func(context.Context) error {
			probes++
			if ok {
				return nil
			}
			return errRefused
		}
	}
	assert.True(t, b.Check(context.Background(), probe(true)), "no outcome yet: probed")
	assert.Equal(t, 1, probes)
	assert.True(t, b.Check(context.Background(), probe(false)), "a fresh success answers")
	assert.Equal(t, 1, probes)
	clock.Add(31 * time.Second)
	assert.False(t, b.Check(context.Background(), probe(false)), "stale: probed again")
	assert.Equal(t, 2, probes)
	require.ErrorIs(t, b.Call(context.Background(), hang), modelguard.ErrDeadline)
	assert.False(t, b.Check(context.Background(), probe(true)), "open: no probe")
	assert.Equal(t, 2, probes)
}

func TestConfigReportsEveryProblem(t *testing.T) {
	_, err := modelguard.New(modelguard.NewConfig("x").WithDeadline(0).WithCoolDown(-1).WithFailures(0).
		WithFresh(-1).WithClock(nil).WithTimer(nil))
	require.Error(t, err)
	for _, want := range []string{"deadline", "cool-down", "failures", "freshness", "clock", "timer"} {
		assert.Contains(t, err.Error(), want)
	}
}
