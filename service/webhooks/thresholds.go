package webhooks

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/events"
	"github.com/emojisearch/emojisearch/service/metering"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/store"
)

// Thresholds of spec 2 (usage.threshold), in percent.
var Thresholds = []int64{80, 100}

// ThresholdStore is a metering.UsageStore that fires usage.threshold
// events after the counts it writes (see the package doc). Failures of the
// threshold check are logged, never returned: the counts are written, and
// an error would make the meter write them again.
type ThresholdStore struct {
	inner metering.UsageStore
	s     *Service
	fired func(ctx context.Context)

	mu   sync.Mutex
	done map[string]bool // thresholds this instance knows have fired
}

// Thresholds wraps the meter's store. fired (may be nil) runs after a
// batch that may have written events, e.g. to start a pump.
func (s *Service) Thresholds(inner metering.UsageStore, fired func(ctx context.Context)) *ThresholdStore {
	return &ThresholdStore{inner: inner, s: s, fired: fired, done: map[string]bool{}}
}

// AccountTotal is the wrapped store's.
func (t *ThresholdStore) AccountTotal(ctx context.Context, accountID, period, metric string) (int64, error) {
	return t.inner.AccountTotal(ctx, accountID, period, metric)
}

// AddUsage writes the counts, then checks the thresholds they touched.
func (t *ThresholdStore) AddUsage(ctx context.Context, deltas []metering.Delta) error {
	if err := t.inner.AddUsage(ctx, deltas); err != nil {
		return err
	}
	if err := t.check(ctx, deltas); err != nil {
		t.s.cfg.logf("webhooks: usage threshold check failed: %T", err)
	}
	return nil
}

type usageKey struct{ account, period, metric string }

func (t *ThresholdStore) check(ctx context.Context, deltas []metering.Delta) error {
	var keys []usageKey
	seen := map[usageKey]bool{}
	for _, d := range deltas {
		k := usageKey{d.AccountID, d.Period, d.Metric}
		if d.Count <= 0 || seen[k] || (d.Metric != plans.SemanticCalls && d.Metric != plans.ImageClassifications) {
			continue
		}
		seen[k] = true
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil
	}
	reads := make([]store.Stmt, len(keys))
	for i, k := range keys {
		reads[i] = store.Q(`SELECT o.plan, (SELECT coalesce(sum(u.count), 0) FROM usage_monthly u JOIN apps a ON a.id = u.app_id
			WHERE a.account_id = o.id AND u.period = ? AND u.metric = ?) AS used FROM accounts o WHERE o.id = ?`,
			k.period, k.metric, k.account)
	}
	res, err := t.s.cfg.db.Batch(ctx, reads)
	if err != nil {
		return err
	}
	var writes []store.Stmt
	var marks []string
	now := t.s.nowMs()
	for i, k := range keys {
		if len(res[i].Rows) == 0 {
			continue
		}
		var r struct {
			Plan string `json:"plan"`
			Used int64  `json:"used"`
		}
		if err := store.Decode(res[i].Rows[0], &r); err != nil {
			return err
		}
		lim, err := plans.Get(r.Plan)
		if err != nil {
			continue
		}
		limit, ok := lim.Monthly(k.metric)
		if !ok || limit <= 0 {
			continue // unlimited or nothing allowed: no percentage to reach
		}
		for _, th := range Thresholds {
			mark := fmt.Sprintf("%s|%s|%s|%d|%d", k.account, k.period, k.metric, th, limit)
			if r.Used*100 < limit*th || t.known(mark) {
				continue
			}
			marks = append(marks, mark)
			writes = append(writes, fireStmts(k, th, limit, r.Used, now)...)
		}
	}
	if len(writes) == 0 {
		return nil
	}
	if _, err := t.s.cfg.db.Batch(ctx, writes); err != nil {
		return err
	}
	t.mu.Lock()
	for _, m := range marks {
		if len(t.done) > 10_000 {
			clear(t.done)
		}
		t.done[m] = true
	}
	t.mu.Unlock()
	if t.fired != nil {
		t.fired(ctx)
	}
	return nil
}

func (t *ThresholdStore) known(mark string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.done[mark]
}

// fireStmts claims the threshold with INSERT OR IGNORE and writes one event
// per app of the account with the same id, only when this claim won (the
// row carries this event id).
func fireStmts(k usageKey, threshold, limit, used, now int64) []store.Stmt {
	id := accounts.NewID("evt")
	data, _ := json.Marshal(map[string]any{"metric": k.metric, "threshold": threshold, "period": k.period,
		"used": used, "limit": limit})
	return []store.Stmt{
		store.Q(`INSERT OR IGNORE INTO usage_thresholds (account_id, period, metric, threshold, limit_value, event_id, fired_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, k.account, k.period, k.metric, threshold, limit, id, now),
		store.Q(`INSERT INTO events (id, app_id, type, data, created_at)
			SELECT ?1, a.id, ?2, ?3, ?4 FROM apps a WHERE a.account_id = ?5 AND EXISTS (SELECT 1 FROM usage_thresholds
				WHERE account_id = ?5 AND period = ?6 AND metric = ?7 AND threshold = ?8 AND limit_value = ?9 AND event_id = ?1)`,
			id, events.UsageThreshold, string(data), now, k.account, k.period, k.metric, threshold, limit),
	}
}
