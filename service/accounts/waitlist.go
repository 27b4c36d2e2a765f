package accounts

import (
	"context"
	"strings"
	"time"

	"github.com/emojisearch/emojisearch/service/store"
)

// Waitlist sources.
const (
	SourceWebsite = "website" // the public POST /api/waitlist
	SourceUpgrade = "upgrade" // POST /api/billing/upgrade
)

// WaitlistEntry is one sign-up.
type WaitlistEntry struct {
	Email     string
	Plan      string
	Source    string
	AccountID string // "" for the public form
}

// NormalizeEmail is the form emails are keyed and compared by: trimmed,
// lower case.
func NormalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// JoinWaitlist records a sign-up, one row per email: a repeat sign-up
// updates the plan and source but keeps the first sign-up time, which the
// 12-month retention counts from, and keeps a known account link.
func (r *Repo) JoinWaitlist(ctx context.Context, e WaitlistEntry) error {
	now := r.nowMs()
	_, err := r.db.Run(ctx, store.Q(`INSERT INTO waitlist (email, plan, source, account_id, created_at, updated_at)
		VALUES (?1, ?2, ?3, ?4, ?5, ?5)
		ON CONFLICT (email) DO UPDATE SET plan = excluded.plan, source = excluded.source,
			account_id = coalesce(excluded.account_id, waitlist.account_id), updated_at = excluded.updated_at`,
		NormalizeEmail(e.Email), e.Plan, e.Source, nullable(e.AccountID), now))
	return err
}

// WaitlistPlan is the plan an account asked for: its own request, else the
// entry of its email; "" when there is none.
func (r *Repo) WaitlistPlan(ctx context.Context, a Account) (string, error) {
	row, err := r.db.First(ctx, store.Q(`SELECT plan FROM waitlist WHERE account_id = ?1 OR email = ?2
		ORDER BY account_id = ?1 DESC, updated_at DESC LIMIT 1`, a.ID, NormalizeEmail(a.EmailOrEmpty())))
	if err != nil {
		return "", err
	}
	return row.String("plan")
}

// PruneWaitlist deletes entries whose first sign-up is older than before
// (spec 2: kept 12 months), for a daily job.
func (r *Repo) PruneWaitlist(ctx context.Context, before time.Time) (int64, error) {
	m, err := r.db.Run(ctx, store.Q("DELETE FROM waitlist WHERE created_at < ?", before.UnixMilli()))
	return m.Changes, err
}
