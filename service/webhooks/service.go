package webhooks

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/emojisearch/emojisearch/service/store"
)

// Doer sends one HTTP request and must not follow redirects (the Worker's
// fetch with redirect "manual"; in tests an http.Client whose
// CheckRedirect returns http.ErrUseLastResponse). It honours the request's
// context.
type Doer interface {
	Do(req *http.Request) (*http.Response, error)
}

// SleepFunc waits d or until ctx ends (ctx.Err()).
type SleepFunc func(ctx context.Context, d time.Duration) error

// Runner runs fn after the response, keeping the request alive until fn
// returns (the Worker's waitUntil).
type Runner func(ctx context.Context, fn func(ctx context.Context))

// Spec 2 Limits and the pump's own bounds.
const (
	MaxPerApp      = 10
	KeptDeliveries = 50
	Attempts       = 3
	DefaultTimeout = 10 * time.Second
	// Lease is how long a claimed queue row stays with its pump past its
	// due time before another pump may take it.
	Lease = 30 * time.Second
	// RequestBudget bounds a pump in a request's waitUntil (Workers end
	// background work about 30 s after the response).
	RequestBudget = 25 * time.Second
	// SweepHorizon is how far ahead the cron sweep claims rows; the sweep
	// runs every minute.
	SweepHorizon = 60 * time.Second
	// Retention of events and fan-out marks.
	Retention  = 7 * 24 * time.Hour
	claimLimit = 50
	parallel   = 6
)

// RetryDelays are the waits before attempts 2 and 3 (spec 2 Delivery).
var RetryDelays = [Attempts - 1]time.Duration{10 * time.Second, 60 * time.Second}

// Config of a Service: an immutable value, each With… returns a copy, and
// New checks it.
type Config struct {
	db      store.DB
	doer    Doer
	now     func() time.Time
	sleep   SleepFunc
	dev     bool
	timeout time.Duration
	delays  [Attempts - 1]time.Duration
	logf    func(format string, args ...any)
}

// NewConfig returns a production configuration over the database and the
// outbound HTTP client.
func NewConfig(db store.DB, doer Doer) Config {
	return Config{db: db, doer: doer, now: time.Now, sleep: timerSleep, timeout: DefaultTimeout,
		delays: RetryDelays, logf: log.Printf}
}

// WithDoer sets the outbound HTTP client.
func (c Config) WithDoer(d Doer) Config { c.doer = d; return c }

// WithClock sets the clock.
func (c Config) WithClock(now func() time.Time) Config { c.now = now; return c }

// WithSleep sets how the pump waits (the Worker passes a JS timer).
func (c Config) WithSleep(s SleepFunc) Config { c.sleep = s; return c }

// WithDevelopment applies the development environment's URL allowances.
func (c Config) WithDevelopment(dev bool) Config { c.dev = dev; return c }

// WithTimeout sets the success window of an attempt (spec: 10 s).
func (c Config) WithTimeout(d time.Duration) Config { c.timeout = d; return c }

// WithRetryDelays sets the waits before attempts 2 and 3 (tests shorten
// them; production keeps RetryDelays).
func (c Config) WithRetryDelays(second, third time.Duration) Config {
	c.delays = [Attempts - 1]time.Duration{second, third}
	return c
}

// WithLog sets where event names and error kinds are logged (never URLs,
// secrets or bodies).
func (c Config) WithLog(logf func(format string, args ...any)) Config { c.logf = logf; return c }

// Service manages webhooks and delivers events.
type Service struct{ cfg Config }

// New checks cfg, reporting every problem at once.
func New(cfg Config) (*Service, error) {
	var errs []error
	if cfg.db == nil {
		errs = append(errs, errors.New("no database"))
	}
	if cfg.doer == nil {
		errs = append(errs, errors.New("no HTTP client"))
	}
	if cfg.now == nil || cfg.sleep == nil || cfg.logf == nil {
		errs = append(errs, errors.New("no clock, sleep or log"))
	}
	if cfg.timeout <= 0 {
		errs = append(errs, fmt.Errorf("timeout %v: want > 0", cfg.timeout))
	}
	if cfg.delays[0] <= 0 || cfg.delays[1] <= 0 {
		errs = append(errs, fmt.Errorf("retry delays %v: want > 0", cfg.delays))
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("webhooks: %w", errors.Join(errs...))
	}
	return &Service{cfg: cfg}, nil
}

// timerSleep is the native sleep (tests, hostsim's own Go).
func timerSleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Service) nowMs() int64 { return s.cfg.now().UnixMilli() }
