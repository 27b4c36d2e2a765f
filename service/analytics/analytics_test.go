//go:build !js

package analytics

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/store"
	"github.com/emojisearch/emojisearch/service/store/sqlitedb"
	"github.com/emojisearch/emojisearch/service/writebehind"
)

var bg = context.Background()

// today is a fixed UTC noon; tests move a clock from it.
var today = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// db is a real SQLite database with the repository's migrations and one
// account per plan, each with app "app-<plan>".
func db(t *testing.T) *sqlitedb.DB {
	t.Helper()
	d, err := sqlitedb.Open(bg, ":memory:", sqlitedb.RepoMigrations())
	require.NoError(t, err)
	t.Cleanup(func() { _ = d.Close() })
	for _, l := range plans.All() {
		_, err := d.Batch(bg, []store.Stmt{
			store.Q(`INSERT INTO accounts (id, idp_user_id, plan, created_at) VALUES (?, ?, ?, 0)`, "acct-"+l.Name, "sub-"+l.Name, l.Name),
			store.Q(`INSERT INTO apps (id, account_id, name, environment, created_at) VALUES (?, ?, 'A', 'production', 0)`, "app-"+l.Name, "acct-"+l.Name),
		})
		require.NoError(t, err)
	}
	return d
}

func caller(plan string) access.Caller {
	return access.Caller{AppID: "app-" + plan, AccountID: "acct-" + plan, Plan: plan}
}

func count(t *testing.T, d store.DB, sql string, args ...any) int64 {
	t.Helper()
	row, err := d.First(bg, store.Q(sql, args...))
	require.NoError(t, err)
	n, err := row.Int("n")
	require.NoError(t, err)
	return n
}

func TestQueryKey(t *testing.T) {
	k := QueryKey("en", "cat")
	assert.Len(t, k, 16)
	assert.Equal(t, k, QueryKey("en", "cat"), "stable")
	assert.NotEqual(t, k, QueryKey("fr", "cat"), "the locale is part of the key")
	assert.NotEqual(t, QueryKey("e", "ncat"), QueryKey("en", "cat"), "locale and query are separated")
}

func TestWhoIsCounted(t *testing.T) {
	for _, tc := range []struct {
		name   string
		caller access.Caller
		want   bool
	}{
		{"keyed", caller(plans.Pro), true},
		{"anonymous", access.Caller{Anonymous: true}, false},
		{"development key", access.Caller{Dev: true, AppID: "dev", AccountID: "dev"}, false},
		{"no app", access.Caller{AccountID: "acct"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, Counted(tc.caller)) })
	}
}

func TestFlushWritesExactCounts(t *testing.T) {
	d := db(t)
	clk := &clock{t: today}
	var delays []time.Duration
	timer := func(d time.Duration) func(context.Context) error {
		delays = append(delays, d)
		return func(context.Context) error { return nil }
	}
	wb, err := writebehind.New(writebehind.NewConfig().WithEvery(10 * time.Second).WithClock(clk.now).WithTimer(timer))
	require.NoError(t, err)
	c, err := New(Config{Writer: NewStore(d), Now: clk.now, WriteBehind: wb})
	require.NoError(t, err)
	pro := caller(plans.Pro)
	for i := range 12 {
		c.Record(pro, "en", "cat", "cat", i%3 == 0)
	}
	c.Record(pro, "fr", "cat", "cat", false)
	c.Record(access.Caller{Anonymous: true}, "en", "cat", "cat", false)
	c.MaybeFlush(bg, nil) // the first write of the instance runs at once
	assert.Empty(t, delays)
	assert.Equal(t, int64(13), count(t, d, `SELECT sum(searches) AS n FROM query_daily`))
	assert.Equal(t, int64(4), count(t, d, `SELECT sum(misses) AS n FROM query_daily`))
	assert.Equal(t, int64(2), count(t, d, `SELECT count(*) AS n FROM query_daily`), "one row per locale")

	c.Record(pro, "en", "cat", "cat", false)
	clk.add(4 * time.Second)
	var tasks []func(context.Context)
	collect := func(_ context.Context, fn func(context.Context)) { tasks = append(tasks, fn) }
	c.MaybeFlush(bg, collect)
	c.MaybeFlush(bg, collect)
	require.Len(t, tasks, 1, "one delayed write per instance, armed in the counting request's waitUntil")
	assert.Equal(t, []time.Duration{6 * time.Second}, delays, "the rest of the 10 s interval")
	assert.Equal(t, int64(13), count(t, d, `SELECT sum(searches) AS n FROM query_daily`), "not written before the interval")
	tasks[0](bg)
	assert.Equal(t, int64(14), count(t, d, `SELECT sum(searches) AS n FROM query_daily`))
	c.MaybeFlush(bg, collect)
	assert.Len(t, tasks, 1, "nothing unwritten: nothing armed")
}

// failing fails its first n writes.
type failing struct {
	w Writer
	n int
}

func (f *failing) AddRows(ctx context.Context, rows []Row) error {
	if f.n > 0 {
		f.n--
		return errors.New("d1 down")
	}
	return f.w.AddRows(ctx, rows)
}

func TestFailedFlushKeepsCounts(t *testing.T) {
	d := db(t)
	w := &failing{w: NewStore(d), n: 1}
	c, err := New(Config{Writer: w, Now: func() time.Time { return today }})
	require.NoError(t, err)
	for range 5 {
		c.Record(caller(plans.Scale), "en", "dog", "dog", true)
	}
	err = c.Flush(bg)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "dog", "query text never reaches errors (and so logs)")
	c.Record(caller(plans.Scale), "en", "dog", "dog", false)
	require.NoError(t, c.Flush(bg))
	assert.Equal(t, int64(6), count(t, d, `SELECT searches AS n FROM query_daily`))
	assert.Equal(t, int64(5), count(t, d, `SELECT misses AS n FROM query_daily`))
}

func TestDistinctQueryCap(t *testing.T) {
	d := db(t)
	c, err := New(Config{Writer: NewStore(d), Now: func() time.Time { return today }})
	require.NoError(t, err)
	pro := caller(plans.Pro)
	for i := range MaxQueriesPerDay + 50 {
		q := fmt.Sprint("q", i)
		c.Record(pro, "en", q, q, false)
	}
	require.NoError(t, c.Flush(bg))
	// A second instance's new queries meet the cap in D1.
	c2, err := New(Config{Writer: NewStore(d), Now: func() time.Time { return today }})
	require.NoError(t, err)
	c2.Record(pro, "en", "late newcomer", "late newcomer", true)
	c2.Record(pro, "en", "q1", "q1", false)
	require.NoError(t, c2.Flush(bg))

	assert.Equal(t, int64(MaxQueriesPerDay), count(t, d, `SELECT count(*) AS n FROM query_daily WHERE qkey != 'overflow'`))
	assert.Equal(t, int64(51), count(t, d, `SELECT searches AS n FROM query_daily WHERE qkey = 'overflow'`))
	assert.Equal(t, int64(1), count(t, d, `SELECT misses AS n FROM query_daily WHERE qkey = 'overflow'`))
	assert.Equal(t, int64(0), count(t, d, `SELECT count(*) AS n FROM query_daily WHERE qkey = 'overflow' AND query != ''`))
	assert.Equal(t, int64(MaxQueriesPerDay+52), count(t, d, `SELECT sum(searches) AS n FROM query_daily`), "day total exact")
	assert.Equal(t, int64(2), count(t, d, `SELECT searches AS n FROM query_daily WHERE query = 'q1'`))
}

func TestInstanceRowCap(t *testing.T) {
	c, err := New(Config{Writer: NewStore(db(t)), Now: func() time.Time { return today }})
	require.NoError(t, err)
	// Many apps, each under its own cap, fill the instance.
	for i := range MaxRows + 10 {
		q := fmt.Sprint("q", i)
		c.Record(access.Caller{AppID: fmt.Sprint("app", i/MaxQueriesPerDay), AccountID: "a"}, "en", q, q, false)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	assert.LessOrEqual(t, len(c.rows), MaxRows+1, "past the cap only an overflow row is added")
	assert.Equal(t, int64(10), c.rows[rowKey{fmt.Sprint("app", MaxRows/MaxQueriesPerDay), Day(today), OverflowKey}].searches)
}

func TestWindow(t *testing.T) {
	pro, _ := plans.Get(plans.Pro)
	scale, _ := plans.Get(plans.Scale)
	for _, tc := range []struct {
		in   string
		l    plans.Limits
		want int
		ok   bool
	}{
		{"", pro, 30, true}, {"7", pro, 7, true}, {"30", pro, 30, true}, {"90", pro, 30, true},
		{"90", scale, 90, true}, {"7", scale, 7, true},
		{"14", pro, 0, false}, {"-7", pro, 0, false}, {"7x", pro, 0, false}, {"365", scale, 0, false},
	} {
		t.Run(tc.in+"/"+tc.l.Name, func(t *testing.T) {
			n, ok := Window(tc.in, tc.l)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, n)
		})
	}
}

// add writes one row directly.
func add(t *testing.T, d store.DB, app, day, locale, query string, searches, misses int64) {
	t.Helper()
	require.NoError(t, NewStore(d).AddRows(bg, []Row{{AppID: app, Day: day, Key: QueryKey(locale, query), Locale: locale, Query: query, Searches: searches, Misses: misses}}))
}

func TestReport(t *testing.T) {
	d := db(t)
	app := "app-" + plans.Pro
	add(t, d, app, "2026-11-21", "en", "cat", 3, 0)
	add(t, d, app, "2026-11-27", "en", "cat", 1, 0)
	add(t, d, app, "2026-11-27", "fr", "cat", 1, 1)   // same query, other locale: named together
	add(t, d, app, "2026-11-27", "en", "rare", 4, 4)  // under the naming threshold
	add(t, d, app, "2026-11-20", "en", "old", 50, 50) // before a 7-day window
	add(t, d, app, "2026-11-25", "en", "zzz", 9, 6)
	require.NoError(t, NewStore(d).AddRows(bg, []Row{{AppID: app, Day: "2026-11-25", Key: OverflowKey, Searches: 100, Misses: 7}}))
	add(t, d, "app-"+plans.Scale, "2026-11-27", "en", "other app", 99, 0)

	rep, err := NewStore(d).Report(bg, app, today, 7)
	require.NoError(t, err)
	require.Len(t, rep.Days, 7)
	assert.Equal(t, DayCount{"2026-11-21", 3, 0}, rep.Days[0], "oldest first")
	assert.Equal(t, DayCount{"2026-11-22", 0, 0}, rep.Days[1], "zeros for quiet days")
	assert.Equal(t, DayCount{"2026-11-25", 109, 13}, rep.Days[4], "overflow counts in the day")
	assert.Equal(t, DayCount{"2026-11-27", 6, 5}, rep.Days[6], "today last")
	assert.Equal(t, []QueryCount{{"zzz", 9}, {"cat", 5}}, rep.TopQueries)
	assert.Equal(t, []MissCount{{"zzz", 6}, {"cat", 1}}, rep.TopMisses)
	assert.Equal(t, []LocaleCount{{"en", 17}, {"fr", 1}}, rep.Locales, "every query's locale, the overflow row aside")

	rep, err = NewStore(d).Report(bg, app, today, 30)
	require.NoError(t, err)
	assert.Len(t, rep.Days, 30)
	assert.Equal(t, "old", rep.TopQueries[0].Query)
}

func TestReportTop20(t *testing.T) {
	d := db(t)
	app := "app-" + plans.Scale
	var rows []Row
	for i := range 30 {
		q := fmt.Sprintf("q%02d", i)
		rows = append(rows, Row{AppID: app, Day: "2026-11-27", Key: QueryKey("en", q), Locale: "en", Query: q, Searches: int64(10 + i), Misses: int64(i)})
	}
	require.NoError(t, NewStore(d).AddRows(bg, rows))
	rep, err := NewStore(d).Report(bg, app, today, 7)
	require.NoError(t, err)
	require.Len(t, rep.TopQueries, TopN)
	require.Len(t, rep.TopMisses, TopN)
	assert.Equal(t, QueryCount{"q29", 39}, rep.TopQueries[0])
	assert.Equal(t, QueryCount{"q10", 20}, rep.TopQueries[19])
	assert.Equal(t, MissCount{"q29", 29}, rep.TopMisses[0])
}

func TestPrune(t *testing.T) {
	d := db(t)
	for _, tc := range []struct {
		plan      string
		keepDays  int
		oldestDay string
	}{
		{plans.Free, 7, "2026-11-21"}, {plans.Solo, 7, "2026-11-21"},
		{plans.Pro, 30, "2026-10-29"}, {plans.Scale, 365, "2025-11-28"},
	} {
		app := "app-" + tc.plan
		kept := today.AddDate(0, 0, -(tc.keepDays - 1))
		require.Equal(t, tc.oldestDay, Day(kept))
		add(t, d, app, Day(kept), "en", "kept", 1, 0)
		add(t, d, app, Day(kept.AddDate(0, 0, -1)), "en", "gone", 1, 0)
	}
	n, err := NewStore(d).Prune(bg, today)
	require.NoError(t, err)
	assert.Equal(t, int64(4), n)
	assert.Equal(t, int64(0), count(t, d, `SELECT count(*) AS n FROM query_daily WHERE query = 'gone'`))
	assert.Equal(t, int64(4), count(t, d, `SELECT count(*) AS n FROM query_daily WHERE query = 'kept'`))
}

func TestRowsOfDeletedAppsAreDropped(t *testing.T) {
	d := db(t)
	require.NoError(t, NewStore(d).AddRows(bg, []Row{{AppID: "gone", Day: "2026-11-27", Key: QueryKey("en", "x"), Locale: "en", Query: "x", Searches: 1}}))
	assert.Equal(t, int64(0), count(t, d, `SELECT count(*) AS n FROM query_daily`))
}

// The privacy verdict is taken on the query as typed: its normalized form
// ("bob 77") no longer shows the handle.
func TestPersonalFlag(t *testing.T) {
	d := db(t)
	c, err := New(Config{Writer: NewStore(d), Now: func() time.Time { return today }})
	require.NoError(t, err)
	pro := caller(plans.Pro)
	c.Record(pro, "en", "bob 77", "bob 77", false)
	require.NoError(t, c.Flush(bg))
	assert.Equal(t, int64(0), count(t, d, `SELECT personal AS n FROM query_daily`))
	c.Record(pro, "en", "@bob_77", "bob 77", false)
	c.Record(pro, "en", "cat", "cat", false)
	require.NoError(t, c.Flush(bg))
	assert.Equal(t, int64(1), count(t, d, `SELECT personal AS n FROM query_daily WHERE query = 'bob 77'`), "once personal, always")
	assert.Equal(t, int64(0), count(t, d, `SELECT personal AS n FROM query_daily WHERE query = 'cat'`))
}
