// Package metering counts metered calls and answers whether an account is
// over its monthly plan limit (spec 1, Limits: Metering).
//
// Each instance counts in memory per app, UTC month and metric, and writes
// its counts through a UsageStore with the instance's one delayed write
// (service/writebehind): about every second while busy and within about a
// second of the first unwritten count when traffic stops; that package's doc says
// what can still be lost and its bound. It keeps a
// copy of each account's stored total that is at most 60 s old and adds
// its own unwritten counts, so an account can go slightly over its limit
// (counts of other instances show within a minute), as the spec allows.
//
// There are no Go timers in the Worker (FACTS.md, one Go instance per
// isolate): the handler calls MaybeFlush after Count and passes its
// waitUntil as the Runner; the write-behind arms a JS timer in that
// request. Locks are held only for map work, never across a store call.
//
// Decisions:
//   - Counts are never lost or counted twice by this package: a flush swaps
//     the counters out under the lock, writes outside it, and merges them
//     back when the write fails. A write that fails after the store applied
//     it (a timeout after the commit) is retried and counted twice; the
//     store offers no idempotency key to prevent that. Counts still in
//     memory when the isolate is evicted are lost (at most one write
//     interval, 1 s), which is why MaybeFlush must run after Count in the same
//     request.
//   - An account whose plan is unknown, or a metric without a monthly limit,
//     is never over the limit: a broken row must not degrade a paying
//     customer's answers.
//   - A store that cannot be read for a total fails open: the last known
//     total (or 0) plus local counts is used, and the store is asked again
//     after 10 s, not on every request.
package metering

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/writebehind"
)

// Delta is a count to add to one app's monthly usage row.
type Delta struct {
	AppID     string
	AccountID string
	Period    string // "YYYY-MM", UTC
	Metric    string // plans.SemanticCalls or plans.ImageClassifications
	Count     int64
}

// UsageStore is where usage lives (D1 usage_monthly). AddUsage adds the
// deltas atomically; counts of apps that no longer exist are dropped.
// AccountTotal sums every app of the account.
type UsageStore interface {
	AddUsage(ctx context.Context, deltas []Delta) error
	AccountTotal(ctx context.Context, accountID, period, metric string) (int64, error)
}

// Runner runs fn after the response, keeping the request alive until fn
// returns (the worker passes a wrapper around ctx.waitUntil).
type Runner = writebehind.Runner

// Defaults of spec 1 (Metering rule 5).
const (
	DefaultFlushEvery = writebehind.DefaultEvery
	DefaultTotalTTL   = 60 * time.Second
	// retryAfter spaces out reads of a total after a failed one, and lets a
	// refresh whose request vanished (its await never resumes) be retried.
	retryAfter = 10 * time.Second
	// maxTotals bounds the cached account totals of one instance.
	maxTotals = 10_000
)

// Config of a Meter: an immutable value, each With… returns a copy, and
// New checks it.
type Config struct {
	store      UsageStore
	now        func() time.Time
	flushEvery time.Duration
	totalTTL   time.Duration
	onError    func(error)
	writer     *writebehind.Writer
}

// NewConfig returns the default configuration over store.
func NewConfig(store UsageStore) Config {
	return Config{store: store, now: time.Now, flushEvery: DefaultFlushEvery, totalTTL: DefaultTotalTTL}
}

// WithClock sets the clock, so tests move time instead of sleeping.
func (c Config) WithClock(now func() time.Time) Config {
	c.now = now
	return c
}

// WithWriteBehind makes the Meter write through w, the instance's one
// delayed write shared with other counters; New adds the Meter to it.
// Without it New makes a private one with Go timers (native processes),
// from the flush interval, clock and error hook.
func (c Config) WithWriteBehind(w *writebehind.Writer) Config {
	c.writer = w
	return c
}

// WithFlushEvery sets the least time between two scheduled flushes (of
// the private write-behind; a shared one has its own interval).
func (c Config) WithFlushEvery(d time.Duration) Config {
	c.flushEvery = d
	return c
}

// WithTotalTTL sets the greatest age of a cached account total.
func (c Config) WithTotalTTL(d time.Duration) Config {
	c.totalTTL = d
	return c
}

// WithErrorHook is told about store errors that were absorbed (a failed
// scheduled flush, a failed total read), for metrics.
func (c Config) WithErrorHook(fn func(error)) Config {
	c.onError = fn
	return c
}

type appKey struct{ app, account, period, metric string }

type acctKey struct{ account, period, metric string }

// total is the cached stored total of one account, period and metric.
type total struct {
	value     int64
	fetchedAt time.Time // when the read began; zero before the first read
	seq       uint64    // m.seq when the read completed
	// stale: a write may or may not be in value; read again.
	stale      bool
	refreshing time.Time // a read began then and has not ended
	retryAt    time.Time // after a failed read
}

// Meter counts calls of one instance. It is safe for concurrent use.
type Meter struct {
	store      UsageStore
	now        func() time.Time
	flushEvery time.Duration
	ttl        time.Duration
	onError    func(error)

	mu      sync.Mutex
	counts  map[appKey]int64  // not yet handed to a write
	pending map[acctKey]int64 // counts plus writes in flight: not yet stored
	totals  map[acctKey]*total
	// seq orders reads and writes of the store, to know whether a cached
	// total includes a write.
	seq            uint64
	writesInFlight int
	lastWriteEvent uint64 // seq of the last write start or end
	period         periodCache
	writer         *writebehind.Writer
}

type periodCache struct {
	year  int
	month time.Month
	s     string
}

// New checks c and returns a Meter, reporting every problem at once.
func New(c Config) (*Meter, error) {
	var errs []error
	if c.store == nil {
		errs = append(errs, errors.New("metering: no usage store"))
	}
	if c.now == nil {
		errs = append(errs, errors.New("metering: no clock"))
	}
	if c.flushEvery <= 0 {
		errs = append(errs, fmt.Errorf("metering: flush interval %v is not positive", c.flushEvery))
	}
	if c.totalTTL <= 0 {
		errs = append(errs, fmt.Errorf("metering: total TTL %v is not positive", c.totalTTL))
	}
	w := c.writer
	if w == nil && len(errs) == 0 {
		var err error
		w, err = writebehind.New(writebehind.NewConfig().WithEvery(c.flushEvery).WithClock(c.now).WithErrorHook(c.onError))
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	m := &Meter{
		store: c.store, now: c.now, flushEvery: c.flushEvery, ttl: c.totalTTL, onError: c.onError,
		counts:  make(map[appKey]int64),
		pending: make(map[acctKey]int64),
		totals:  make(map[acctKey]*total),
		writer:  w,
	}
	w.Add(m.Flush)
	return m, nil
}

// Metered reports whether calls of c count: keyed callers other than
// development keys (spec 1, Authentication rules 1 and 6).
func Metered(c access.Caller) bool {
	return !c.Anonymous && !c.Dev && c.AppID != "" && c.AccountID != ""
}

// Period returns the UTC month of t as "YYYY-MM".
func Period(t time.Time) string {
	y, mo, _ := t.UTC().Date()
	return fmt.Sprintf("%04d-%02d", y, int(mo))
}

// periodLocked is Period with the string kept for the month; m.mu is held.
func (m *Meter) periodLocked(t time.Time) string {
	y, mo, _ := t.UTC().Date()
	if y != m.period.year || mo != m.period.month || m.period.s == "" {
		m.period = periodCache{year: y, month: mo, s: Period(t)}
	}
	return m.period.s
}

// Count counts one call of metric for c in the current UTC month. Calls of
// anonymous callers and development keys are not counted. Per spec 1
// (Metering rule 1, over-limit state) the handler counts every answer,
// shared-cache hits included, except degraded answers and answers given
// while OverLimit is true (a cache hit then is unmetered).
func (m *Meter) Count(c access.Caller, metric string) {
	if !Metered(c) {
		return
	}
	now := m.now()
	m.mu.Lock()
	p := m.periodLocked(now)
	m.counts[appKey{c.AppID, c.AccountID, p, metric}]++
	m.pending[acctKey{c.AccountID, p, metric}]++
	m.mu.Unlock()
}

// OverLimit reports whether c's account has used its plan's monthly limit
// of metric: its stored total (a copy at most the TTL old) plus this
// instance's counts not yet stored reach the limit. It may read the store;
// it never fails (see the package doc).
func (m *Meter) OverLimit(ctx context.Context, c access.Caller, metric string) bool {
	if !Metered(c) {
		return false
	}
	l, err := plans.Get(c.Plan)
	if err != nil {
		return false
	}
	limit, ok := l.Monthly(metric)
	if !ok || limit == plans.Unlimited {
		return false
	}
	return m.used(ctx, c.AccountID, metric) >= limit
}

// used is the account's total for the current month, as this instance
// knows it.
func (m *Meter) used(ctx context.Context, account, metric string) int64 {
	now := m.now()
	m.mu.Lock()
	k := acctKey{account, m.periodLocked(now), metric}
	t := m.totals[k]
	if t == nil {
		m.evictTotalsLocked(now)
		t = &total{}
		m.totals[k] = t
	}
	fresh := !t.fetchedAt.IsZero() && !t.stale && now.Sub(t.fetchedAt) < m.ttl
	busy := !t.refreshing.IsZero() && now.Sub(t.refreshing) < retryAfter
	if fresh || busy || now.Before(t.retryAt) {
		// While another request reads the total, use the copy we have.
		v := t.value + m.pending[k]
		m.mu.Unlock()
		return v
	}
	t.refreshing = now
	m.seq++
	start, writing := m.seq, m.writesInFlight > 0
	m.mu.Unlock()

	v, err := m.store.AccountTotal(ctx, k.account, k.period, k.metric)

	m.mu.Lock()
	defer m.mu.Unlock()
	if m.totals[k] != t {
		m.totals[k] = t // evicted meanwhile
	}
	t.refreshing = time.Time{}
	if err != nil {
		t.retryAt = now.Add(retryAfter)
		if m.onError != nil {
			m.onError(err)
		}
		return t.value + m.pending[k]
	}
	m.seq++
	t.value, t.fetchedAt, t.seq = v, now, m.seq
	// A write in flight during the read may or may not be in v.
	t.stale = writing || m.lastWriteEvent > start
	return v + m.pending[k]
}

// evictTotalsLocked keeps the cache of totals bounded: expired entries go
// first, then any that no read is filling.
func (m *Meter) evictTotalsLocked(now time.Time) {
	if len(m.totals) < maxTotals {
		return
	}
	for k, t := range m.totals {
		if t.refreshing.IsZero() && now.Sub(t.fetchedAt) >= m.ttl {
			delete(m.totals, k)
		}
	}
	for k, t := range m.totals {
		if len(m.totals) < maxTotals {
			return
		}
		if t.refreshing.IsZero() {
			delete(m.totals, k)
		}
	}
}

// MaybeFlush makes sure a write is armed when there are unwritten counts
// (service/writebehind: at once after a quiet interval, else when the
// interval since the last write ends; the wait and the write run through
// run). Call it on every metered request, after Count. A nil run waits and
// writes inline.
func (m *Meter) MaybeFlush(ctx context.Context, run Runner) {
	m.writer.ArmPending(ctx, run, &m.mu, func() bool { return len(m.counts) > 0 })
}

// Flush writes every count of the instance (shutdown, cron). On an error
// the counts are kept for the next flush. Flushes may run concurrently:
// each writes the counts it swapped out.
func (m *Meter) Flush(ctx context.Context) error {
	m.mu.Lock()
	if len(m.counts) == 0 {
		m.mu.Unlock()
		return nil
	}
	batch := m.counts
	m.counts = make(map[appKey]int64, len(batch))
	m.writesInFlight++
	m.seq++
	start := m.seq
	m.lastWriteEvent = start
	m.mu.Unlock()

	err := m.store.AddUsage(ctx, deltas(batch))

	m.mu.Lock()
	defer m.mu.Unlock()
	m.writesInFlight--
	m.seq++
	m.lastWriteEvent = m.seq
	if err != nil {
		for k, n := range batch {
			m.counts[k] += n
		}
		return fmt.Errorf("metering: add usage: %w", err)
	}
	for k, n := range batch {
		ak := acctKey{k.account, k.period, k.metric}
		if m.pending[ak] -= n; m.pending[ak] == 0 {
			delete(m.pending, ak)
		}
		t := m.totals[ak]
		if t == nil || t.fetchedAt.IsZero() {
			continue
		}
		if t.seq < start && !t.stale {
			t.value += n // read before this write began: it is not in value
		} else {
			t.stale = true
		}
	}
	return nil
}

// deltas lists a batch in a stable order.
func deltas(batch map[appKey]int64) []Delta {
	out := make([]Delta, 0, len(batch))
	for k, n := range batch {
		out = append(out, Delta{AppID: k.app, AccountID: k.account, Period: k.period, Metric: k.metric, Count: n})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.AppID != b.AppID {
			return a.AppID < b.AppID
		}
		if a.Period != b.Period {
			return a.Period < b.Period
		}
		return a.Metric < b.Metric
	})
	return out
}
