// Package analytics counts keyed /v1/search calls per app, UTC day, locale
// and normalized query, with misses (answers without a result), and reads
// them back for GET /api/apps/:id/analytics (spec 2, Analytics rules).
//
// Like service/metering, each instance counts in memory and writes its
// counts in batches through the instance's one delayed write
// (service/writebehind, shared with metering): about every 10 s while
// busy and within about 10 s of the first unwritten count when traffic
// stops, armed in the counting request's waitUntil (no Go timers in the
// Worker). That package's doc says what can still be lost and its bound.
//
// Storage is bounded at every step:
//   - a row's key is the 64-bit xxhash of locale and query (16 hex digits),
//     so the primary key index has a fixed width whatever the query;
//   - at most MaxQueriesPerDay distinct queries are kept per app and UTC day,
//     in memory and in D1; further queries add to the app's day row
//     "overflow", so day totals stay exact;
//   - one instance holds at most MaxRows rows in memory; past it new queries
//     also go to the app day's overflow row;
//   - a flush writes at most FlushBatch rows per D1 batch;
//   - the nightly job deletes rows past the owner plan's retention.
//
// Query text is data, never a log line: errors name apps and days only.
package analytics

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/metering"
	"github.com/emojisearch/emojisearch/service/privacy"
	"github.com/emojisearch/emojisearch/service/writebehind"
)

// Bounds of the counts (see the package doc).
const (
	MaxQueriesPerDay = 1000
	MaxRows          = 20_000
	FlushBatch       = 400
	// OverflowKey is the qkey of an app day's overflow row.
	OverflowKey = "overflow"
)

// Row is the count of one app, day and query to add to the store.
type Row struct {
	AppID    string
	Day      string // YYYY-MM-DD, UTC
	Key      string // QueryKey, or OverflowKey
	Locale   string // "" in overflow rows
	Query    string // "" in overflow rows
	Searches int64
	Misses   int64
	// Personal: a search of the query looked like personal data as typed
	// (service/privacy); such rows are never published in shards.
	Personal bool
}

// Writer adds rows to the store (D1 query_daily, see Store).
type Writer interface {
	AddRows(ctx context.Context, rows []Row) error
}

// QueryKey is the row key of a normalized query in a locale: xxhash64 of
// locale, NUL, query, as 16 lowercase hex digits.
func QueryKey(locale, query string) string {
	d := xxhash.New()
	_, _ = d.WriteString(locale)
	_, _ = d.Write([]byte{0})
	_, _ = d.WriteString(query)
	s := strconv.FormatUint(d.Sum64(), 16)
	for len(s) < 16 {
		s = "0" + s
	}
	return s
}

// Day returns the UTC day of t as YYYY-MM-DD.
func Day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

type rowKey struct{ app, day, key string }

type appDay struct{ app, day string }

type cell struct {
	locale, query    string
	searches, misses int64
	personal         bool
}

// Counter counts searches of one instance. It is safe for concurrent use.
type Counter struct {
	w      Writer
	now    func() time.Time
	behind *writebehind.Writer

	mu       sync.Mutex
	rows     map[rowKey]*cell
	distinct map[appDay]int // distinct query rows in rows per app day
}

// Config of a Counter.
type Config struct {
	Writer Writer
	Now    func() time.Time // default time.Now
	// WriteBehind is the instance's one delayed write (the worker shares
	// one with metering); New adds the Counter's Flush to it. Nil: a
	// private one with Go timers and the 10 s interval (native processes).
	WriteBehind *writebehind.Writer
}

// New returns a Counter over cfg.Writer.
func New(cfg Config) (*Counter, error) {
	if cfg.Writer == nil {
		return nil, errors.New("analytics: no writer")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	behind := cfg.WriteBehind
	if behind == nil {
		var err error
		if behind, err = writebehind.New(writebehind.NewConfig().WithClock(cfg.Now)); err != nil {
			return nil, err
		}
	}
	k := &Counter{w: cfg.Writer, now: cfg.Now, behind: behind, rows: map[rowKey]*cell{}, distinct: map[appDay]int{}}
	behind.Add(k.Flush)
	return k, nil
}

// Counted reports whether searches of c are counted: keyed callers with an
// app (development keys have none; anonymous calls never count).
func Counted(c access.Caller) bool { return metering.Metered(c) }

// Record counts one search of c in locale: typed is the query as sent,
// query its normalized form; miss reports an answer without a result.
func (k *Counter) Record(c access.Caller, locale, typed, query string, miss bool) {
	if !Counted(c) {
		return
	}
	_, personal := privacy.Personal(typed, locale)
	day := Day(k.now())
	key := QueryKey(locale, query)
	k.mu.Lock()
	defer k.mu.Unlock()
	rk := rowKey{c.AppID, day, key}
	cl := k.rows[rk]
	if cl == nil {
		ad := appDay{c.AppID, day}
		if k.distinct[ad] >= MaxQueriesPerDay || len(k.rows) >= MaxRows {
			rk.key = OverflowKey
			if cl = k.rows[rk]; cl == nil {
				cl = &cell{}
				k.rows[rk] = cl
			}
		} else {
			cl = &cell{locale: locale, query: query}
			k.rows[rk] = cl
			k.distinct[ad]++
		}
	}
	cl.searches++
	cl.personal = cl.personal || personal
	if miss {
		cl.misses++
	}
}

// MaybeFlush makes sure the instance's delayed write is armed when there
// are unwritten counts (service/writebehind: the wait and the write run
// through run, the request's waitUntil). Call it after Record. A nil run
// waits and writes inline.
func (k *Counter) MaybeFlush(ctx context.Context, run writebehind.Runner) {
	k.behind.ArmPending(ctx, run, &k.mu, func() bool { return len(k.rows) > 0 })
}

// Flush writes every count of the instance in batches of FlushBatch rows.
// Rows of a failed batch are merged back for the next flush, so nothing is
// lost or counted twice by this package (a batch that fails after D1
// applied it is retried and counted twice; D1 offers no idempotency key).
func (k *Counter) Flush(ctx context.Context) error {
	k.mu.Lock()
	if len(k.rows) == 0 {
		k.mu.Unlock()
		return nil
	}
	taken := k.rows
	k.rows = make(map[rowKey]*cell, len(taken))
	k.distinct = map[appDay]int{}
	k.mu.Unlock()

	rows := make([]Row, 0, len(taken))
	for rk, c := range taken {
		rows = append(rows, Row{AppID: rk.app, Day: rk.day, Key: rk.key, Locale: c.locale, Query: c.query, Searches: c.searches, Misses: c.misses, Personal: c.personal})
	}
	var errs []error
	for len(rows) > 0 {
		n := min(len(rows), FlushBatch)
		if err := k.w.AddRows(ctx, rows[:n]); err != nil {
			k.restore(rows[:n])
			errs = append(errs, fmt.Errorf("analytics: write %d rows: %w", n, err))
		}
		rows = rows[n:]
	}
	return errors.Join(errs...)
}

// restore merges rows of a failed write back into the counts.
func (k *Counter) restore(rows []Row) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, r := range rows {
		rk := rowKey{r.AppID, r.Day, r.Key}
		c := k.rows[rk]
		if c == nil {
			c = &cell{locale: r.Locale, query: r.Query}
			k.rows[rk] = c
			if r.Key != OverflowKey {
				k.distinct[appDay{r.AppID, r.Day}]++
			}
		}
		c.searches += r.Searches
		c.misses += r.Misses
		c.personal = c.personal || r.Personal
	}
}
