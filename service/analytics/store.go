package analytics

import (
	"context"
	"time"

	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/store"
)

// Store keeps the counts in D1's query_daily (migrations 0002 and 0005).
type Store struct{ db store.DB }

// NewStore returns the store over db.
func NewStore(db store.DB) *Store { return &Store{db: db} }

// addRow upserts one count. A new query of an app day that already holds
// MaxQueriesPerDay query rows goes to the overflow row instead, so the cap
// holds over every instance's flushes; rows of apps deleted meanwhile are
// dropped (spec 2, Account deletion).
const addRow = `INSERT INTO query_daily (app_id, day, qkey, locale, query, searches, misses, personal)
	SELECT ?1, ?2, k.qkey, CASE k.qkey WHEN ?3 THEN ?4 ELSE '' END, CASE k.qkey WHEN ?3 THEN ?5 ELSE '' END, ?6, ?7, ?9
	FROM (SELECT CASE
		WHEN ?3 = 'overflow' THEN 'overflow'
		WHEN EXISTS (SELECT 1 FROM query_daily WHERE app_id = ?1 AND day = ?2 AND qkey = ?3) THEN ?3
		WHEN (SELECT count(*) FROM query_daily WHERE app_id = ?1 AND day = ?2 AND qkey != 'overflow') < ?8 THEN ?3
		ELSE 'overflow' END AS qkey) k
	WHERE EXISTS (SELECT 1 FROM apps WHERE id = ?1)
	ON CONFLICT (app_id, day, qkey) DO UPDATE SET searches = searches + excluded.searches, misses = misses + excluded.misses,
		personal = max(personal, excluded.personal)`

// AddRows adds rows in one D1 batch (one transaction).
func (s *Store) AddRows(ctx context.Context, rows []Row) error {
	if len(rows) == 0 {
		return nil
	}
	stmts := make([]store.Stmt, len(rows))
	for i, r := range rows {
		personal := 0
		if r.Personal {
			personal = 1
		}
		stmts[i] = store.Q(addRow, r.AppID, r.Day, r.Key, r.Locale, r.Query, r.Searches, r.Misses, MaxQueriesPerDay, personal)
	}
	_, err := s.db.Batch(ctx, stmts)
	return err
}

// DayCount is one day of the analytics answer.
type DayCount struct {
	Day      string `json:"day"`
	Searches int64  `json:"searches"`
	Misses   int64  `json:"misses"`
}

// QueryCount is one named query of topQueries.
type QueryCount struct {
	Query    string `json:"query"`
	Searches int64  `json:"searches"`
}

// MissCount is one named query of topMisses.
type MissCount struct {
	Query  string `json:"query"`
	Misses int64  `json:"misses"`
}

// LocaleCount is one entry of locales.
type LocaleCount struct {
	Locale   string `json:"locale"`
	Searches int64  `json:"searches"`
}

// Report is the body of GET /api/apps/:id/analytics. Locales goes beyond
// spec 2 (the dashboard shows it): searches per locale in the window, most
// first; searches past an app-day's cap of query rows (the overflow row)
// have no locale and count in Days only.
type Report struct {
	Days       []DayCount    `json:"days"`
	TopQueries []QueryCount  `json:"topQueries"`
	TopMisses  []MissCount   `json:"topMisses"`
	Locales    []LocaleCount `json:"locales"`
}

// Spec 2's rules for the answer.
const (
	// NameThreshold: a query is named only when the app saw it at least
	// this many times in the window.
	NameThreshold = 5
	// TopN bounds topQueries and topMisses.
	TopN = 20
)

// Window returns the analytics window for a requested number of days
// ("" means 30) and a plan: the days cut to the plan's window. ok is false
// for a value other than 7, 30 or 90.
func Window(requested string, l plans.Limits) (int, bool) {
	n := 30
	switch requested {
	case "", "30":
	case "7":
		n = 7
	case "90":
		n = 90
	default:
		return 0, false
	}
	return min(n, l.AnalyticsWindowDays), true
}

// Report reads an app's window of days ending on today (UTC): one entry per
// day oldest first with zeros, and the named top queries and misses. A
// query is the same query in every locale; overflow rows count in the day
// totals only.
func (s *Store) Report(ctx context.Context, appID string, today time.Time, days int) (Report, error) {
	last := today.UTC()
	first := last.AddDate(0, 0, -(days - 1))
	from, to := Day(first), Day(last)
	rep := Report{TopQueries: []QueryCount{}, TopMisses: []MissCount{}, Locales: []LocaleCount{}}

	var err error
	if rep.Days, err = s.Days(ctx, appID, first, last); err != nil {
		return Report{}, err
	}

	named := `SELECT query, sum(searches) AS searches, sum(misses) AS misses FROM query_daily
		WHERE app_id = ?1 AND day BETWEEN ?2 AND ?3 AND qkey != 'overflow'
		GROUP BY query HAVING sum(searches) >= ?4`
	res, err := s.db.All(ctx, store.Q(named+` ORDER BY searches DESC, query LIMIT ?5`, appID, from, to, NameThreshold, TopN))
	if err != nil {
		return Report{}, err
	}
	if rep.TopQueries, err = store.DecodeAll[QueryCount](res.Rows); err != nil {
		return Report{}, err
	}
	res, err = s.db.All(ctx, store.Q(`SELECT query, misses FROM (`+named+`) WHERE misses > 0
		ORDER BY misses DESC, query LIMIT ?5`, appID, from, to, NameThreshold, TopN))
	if err != nil {
		return Report{}, err
	}
	if rep.TopMisses, err = store.DecodeAll[MissCount](res.Rows); err != nil {
		return Report{}, err
	}
	res, err = s.db.All(ctx, store.Q(`SELECT locale, sum(searches) AS searches FROM query_daily
		WHERE app_id = ? AND day BETWEEN ? AND ? AND qkey != 'overflow'
		GROUP BY locale ORDER BY searches DESC, locale`, appID, from, to))
	if err != nil {
		return Report{}, err
	}
	if rep.Locales, err = store.DecodeAll[LocaleCount](res.Rows); err != nil {
		return Report{}, err
	}
	if rep.Locales == nil {
		rep.Locales = []LocaleCount{}
	}
	if rep.TopQueries == nil {
		rep.TopQueries = []QueryCount{}
	}
	if rep.TopMisses == nil {
		rep.TopMisses = []MissCount{}
	}
	return rep, nil
}

// Days reads an app's searches and misses per UTC day from first to last:
// one entry per day, oldest first, with zeros for days without searches.
// The dashboard's daily usage chart reads it for the month too.
func (s *Store) Days(ctx context.Context, appID string, first, last time.Time) ([]DayCount, error) {
	first, last = first.UTC(), last.UTC()
	res, err := s.db.All(ctx, store.Q(`SELECT day, sum(searches) AS searches, sum(misses) AS misses
		FROM query_daily WHERE app_id = ? AND day BETWEEN ? AND ? GROUP BY day`, appID, Day(first), Day(last)))
	if err != nil {
		return nil, err
	}
	byDay, err := store.DecodeAll[DayCount](res.Rows)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]DayCount, len(byDay))
	for _, d := range byDay {
		seen[d.Day] = d
	}
	out := []DayCount{}
	for d := first; !d.After(last); d = d.AddDate(0, 0, 1) {
		c := seen[Day(d)]
		c.Day = Day(d)
		out = append(out, c)
	}
	return out, nil
}

// Prune deletes rows past the retention of each plan (spec 2 Limits: Free
// and Solo 7 days, Pro 30, Scale 365), counted back from today: a plan
// keeping N days keeps today and the N-1 days before. It returns the
// number of rows deleted.
func (s *Store) Prune(ctx context.Context, today time.Time) (int64, error) {
	var stmts []store.Stmt
	for _, l := range plans.All() {
		cutoff := Day(today.UTC().AddDate(0, 0, -(l.QueryRowDays - 1)))
		stmts = append(stmts, store.Q(`DELETE FROM query_daily WHERE day < ? AND app_id IN
			(SELECT a.id FROM apps a JOIN accounts o ON o.id = a.account_id WHERE o.plan = ?)`, cutoff, l.Name))
	}
	res, err := s.db.Batch(ctx, stmts)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, r := range res {
		n += r.Meta.Changes
	}
	return n, nil
}
