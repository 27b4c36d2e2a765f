package ratelimit

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clockAt returns a clock reading *now, so a test moves time by assigning.
func clockAt(now *time.Time) func() time.Time {
	return func() time.Time { return *now }
}

// windowStart is a time exactly on a 60 s (and so 10 s) boundary.
var windowStart = time.Unix(1_800_000_000-1_800_000_000%60, 0)

func TestNewValidation(t *testing.T) {
	tests := []struct {
		name    string
		limit   int
		period  time.Duration
		cfg     Config
		wantErr []string
	}{
		{"ten seconds", 5, 10 * time.Second, NewConfig(), nil},
		{"minute", 5, time.Minute, NewConfig(), nil},
		{"scaled", 5, time.Minute, NewConfig().WithScale(10), nil},
		{"30 s period", 5, 30 * time.Second, NewConfig(), []string{"unsupported period: 30"}},
		{"sub-second period", 5, 1500 * time.Millisecond, NewConfig(), []string{"unsupported period: 1.5s"}},
		{"zero limit", 0, time.Minute, NewConfig(), []string{"limit must be greater than 0: 0"}},
		{"zero scale", 1, time.Minute, NewConfig().WithScale(0), []string{"scale must be at least 1: 0"}},
		{"nil clock", 1, time.Minute, NewConfig().WithClock(nil), []string{"WithClock needs a clock function"}},
		{"everything at once", -1, time.Hour, NewConfig().WithScale(-2), []string{
			"limit must be greater than 0: -1", "unsupported period: 3600", "scale must be at least 1: -2",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := NewWithConfig(tt.limit, tt.period, tt.cfg)
			if tt.wantErr == nil {
				require.NoError(t, err)
				require.NotNil(t, l)
				assert.Equal(t, tt.period, l.Period())
				return
			}
			require.Error(t, err)
			assert.Nil(t, l)
			for _, want := range tt.wantErr {
				assert.Contains(t, err.Error(), want)
			}
		})
	}
}

func TestFixedWindows(t *testing.T) {
	tests := []struct {
		name   string
		period time.Duration
		// steps: offset from windowStart and the expected answer for key "a"
		steps []struct {
			at   time.Duration
			want bool
		}
	}{
		{"ten seconds", 10 * time.Second, []struct {
			at   time.Duration
			want bool
		}{
			{0, true}, {time.Second, true}, {9 * time.Second, false},
			{10 * time.Second, true}, // a new aligned window clears the count
			{19*time.Second + 999*time.Millisecond, true},
			{19*time.Second + 999*time.Millisecond, false},
			{20 * time.Second, true},
		}},
		{"minute, window aligned not sliding", time.Minute, []struct {
			at   time.Duration
			want bool
		}{
			{59 * time.Second, true}, {59 * time.Second, true}, {59 * time.Second, false},
			{60 * time.Second, true}, {61 * time.Second, true}, {119 * time.Second, false},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var now time.Time
			l, err := NewWithConfig(2, tt.period, NewConfig().WithClock(clockAt(&now)))
			require.NoError(t, err)
			for i, step := range tt.steps {
				now = windowStart.Add(step.at)
				assert.Equal(t, step.want, l.Limit("a"), "step %d at %v", i, step.at)
			}
		})
	}
}

func TestKeysAreIndependent(t *testing.T) {
	now := windowStart
	l, err := NewWithConfig(1, 10*time.Second, NewConfig().WithClock(clockAt(&now)))
	require.NoError(t, err)
	assert.True(t, l.Limit("alice"))
	assert.False(t, l.Limit("alice"))
	assert.True(t, l.Limit("bob"))
	assert.True(t, l.Limit(""), "the empty key is a key like any other")
}

func TestScale(t *testing.T) {
	now := windowStart
	l, err := NewWithConfig(3, time.Minute, NewConfig().WithClock(clockAt(&now)).WithScale(4))
	require.NoError(t, err)
	assert.Equal(t, 12, l.EffectiveLimit())
	allowed := 0
	for i := 0; i < 20; i++ {
		if l.Limit("load-test") {
			allowed++
		}
	}
	assert.Equal(t, 12, allowed)
}

func TestConcurrentCallsCountExactly(t *testing.T) {
	now := windowStart
	l, err := NewWithConfig(100, time.Minute, NewConfig().WithClock(clockAt(&now)))
	require.NoError(t, err)
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for g := 0; g < 10; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if l.Limit("k") {
					allowed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, int64(100), allowed.Load())
}

func TestFloorDiv(t *testing.T) {
	for _, tt := range []struct{ a, b, want int64 }{{10, 10, 1}, {9, 10, 0}, {-1, 10, -1}, {-10, 10, -1}, {-11, 10, -2}} {
		assert.Equal(t, tt.want, floorDiv(tt.a, tt.b), fmt.Sprint(tt.a, "/", tt.b))
	}
}
