package accounts

import (
	"context"

	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/store"
)

// Delta is a count to add to an app's monthly usage of a metric.
type Delta struct {
	AppID  string
	Period string // "YYYY-MM", UTC (Period)
	Metric string // plans.SemanticCalls or plans.ImageClassifications
	Count  int64
}

// AddUsage adds deltas as upserts in one batch. Deltas of the same app,
// period and metric are summed first; counts of apps that no longer exist
// are dropped silently (spec 2, Account deletion 7), so one deleted app
// never fails the flush of the others.
func (r *Repo) AddUsage(ctx context.Context, deltas []Delta) error {
	type key struct{ app, period, metric string }
	sums := map[key]int64{}
	var order []key
	for _, d := range deltas {
		if d.Count <= 0 {
			continue
		}
		k := key{d.AppID, d.Period, d.Metric}
		if _, ok := sums[k]; !ok {
			order = append(order, k)
		}
		sums[k] += d.Count
	}
	if len(order) == 0 {
		return nil
	}
	stmts := make([]store.Stmt, len(order))
	for i, k := range order {
		stmts[i] = store.Q(`INSERT INTO usage_monthly (app_id, period, metric, count)
			SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM apps WHERE id = ?1)
			ON CONFLICT (app_id, period, metric) DO UPDATE SET count = count + excluded.count`,
			k.app, k.period, k.metric, sums[k])
	}
	_, err := r.db.Batch(ctx, stmts)
	return err
}

// AccountTotal is the account's usage of a metric in a period over all its
// apps. For plans.CustomEmoji it is the number of custom emoji stored now,
// whatever the period.
func (r *Repo) AccountTotal(ctx context.Context, accountID, period, metric string) (int64, error) {
	var s store.Stmt
	if metric == plans.CustomEmoji {
		s = store.Q(`SELECT count(*) AS n FROM custom_emoji e JOIN apps a ON a.id = e.app_id
			WHERE a.account_id = ?`, accountID)
	} else {
		s = store.Q(`SELECT coalesce(sum(u.count), 0) AS n FROM usage_monthly u JOIN apps a ON a.id = u.app_id
			WHERE a.account_id = ? AND u.period = ? AND u.metric = ?`, accountID, period, metric)
	}
	row, err := r.db.First(ctx, s)
	if err != nil {
		return 0, err
	}
	return row.Int("n")
}

// Usage is one metric's count for the account and for one of its apps.
type Usage struct {
	Account int64
	App     int64
}

// Metrics lists the usage metrics in the order answers show them.
var Metrics = []string{plans.SemanticCalls, plans.ImageClassifications, plans.CustomEmoji}

// UsageOf returns, per metric of Metrics, the account's total and appID's
// part in a period (custom_emoji: stored now). appID "" gives App 0.
func (r *Repo) UsageOf(ctx context.Context, accountID, appID, period string) (map[string]Usage, error) {
	res, err := r.db.Batch(ctx, []store.Stmt{
		store.Q(`SELECT u.metric, sum(u.count) AS account, sum(CASE WHEN u.app_id = ?2 THEN u.count ELSE 0 END) AS app
			FROM usage_monthly u JOIN apps a ON a.id = u.app_id
			WHERE a.account_id = ?1 AND u.period = ?3 GROUP BY u.metric`, accountID, appID, period),
		store.Q(`SELECT '`+plans.CustomEmoji+`' AS metric, count(*) AS account, coalesce(sum(e.app_id = ?2), 0) AS app
			FROM custom_emoji e JOIN apps a ON a.id = e.app_id WHERE a.account_id = ?1`, accountID, appID),
	})
	if err != nil {
		return nil, err
	}
	out := make(map[string]Usage, len(Metrics))
	for _, m := range Metrics {
		out[m] = Usage{}
	}
	for _, r := range res {
		rows, err := store.DecodeAll[struct {
			Metric  string `json:"metric"`
			Account int64  `json:"account"`
			App     int64  `json:"app"`
		}](r.Rows)
		if err != nil {
			return nil, err
		}
		for _, row := range rows {
			if _, ok := out[row.Metric]; ok {
				out[row.Metric] = Usage{Account: row.Account, App: row.App}
			}
		}
	}
	return out, nil
}
