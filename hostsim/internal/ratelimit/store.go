// Package ratelimit simulates the Workers Rate Limiting binding
// (env.LIMITER.limit({key})) the way miniflare does
// (packages/miniflare/src/workers/ratelimit/): fixed windows aligned to
// multiples of the period since the Unix epoch, one counter per key, and all
// counters cleared when a new window starts. Production counts per Cloudflare
// location and is eventually consistent; locally the count is exact.
package ratelimit

import (
	"sync"
	"time"
)

// Limiter is one rate limit namespace. It is safe for concurrent use.
type Limiter struct {
	limit  int
	period time.Duration
	now    func() time.Time

	mu     sync.Mutex
	window int64
	counts map[string]int
}

// Config configures NewWithConfig. It is an immutable value: start from
// NewConfig; every With… returns a changed copy.
type Config struct {
	now   func() time.Time
	scale int
}

// NewConfig is the default: time.Now and scale 1.
func NewConfig() Config { return Config{now: time.Now, scale: 1} }

// WithClock replaces time.Now, so tests step across windows without sleeping.
func (c Config) WithClock(now func() time.Time) Config { c.now = now; return c }

// WithScale multiplies the limit by factor. It is a switch for load tests
// that send every request from one address (so one key) and would otherwise
// measure the limiter instead of the system; leave it off (1) anywhere the
// production limit must hold.
func (c Config) WithScale(factor int) Config { c.scale = factor; return c }

// New makes a limiter allowing limit calls per key in each period, which must
// be 10 or 60 seconds, as Cloudflare's configuration requires, with
// NewConfig.
func New(limit int, period time.Duration) (*Limiter, error) {
	return NewWithConfig(limit, period, NewConfig())
}

// NewWithConfig is New with a Config; every problem is reported at once.
func NewWithConfig(limit int, period time.Duration, cfg Config) (*Limiter, error) {
	if err := validate(limit, period, cfg); err != nil {
		return nil, err
	}
	return &Limiter{
		limit:  limit * cfg.scale,
		period: period,
		now:    cfg.now,
		counts: map[string]int{},
	}, nil
}

// Limit counts one call for key and reports whether it is within the limit
// (the binding's {success}). Refused calls are not counted.
func (l *Limiter) Limit(key string) bool {
	window := floorDiv(l.now().UnixMilli(), l.period.Milliseconds())
	l.mu.Lock()
	defer l.mu.Unlock()
	if window != l.window {
		l.window = window
		clear(l.counts)
	}
	if l.counts[key] >= l.limit {
		return false
	}
	l.counts[key]++
	return true
}

// EffectiveLimit is the number of calls per key and period after WithScale.
func (l *Limiter) EffectiveLimit() int { return l.limit }

// Period is the window length.
func (l *Limiter) Period() time.Duration { return l.period }

// floorDiv is Math.floor(a / b) for b > 0, as miniflare computes the window.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b < 0 {
		q--
	}
	return q
}
