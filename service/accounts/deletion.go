package accounts

import (
	"context"

	"github.com/emojisearch/emojisearch/service/store"
)

// DeletionImages lists the image-store keys of every custom emoji of the
// account's apps. The route deletes these objects first and deletes rows
// only when that worked (spec 2, Account deletion 3).
func (r *Repo) DeletionImages(ctx context.Context, accountID string) ([]string, error) {
	res, err := r.db.All(ctx, store.Q(`SELECT e.image_key FROM custom_emoji e JOIN apps a ON a.id = e.app_id
		WHERE a.account_id = ? ORDER BY e.image_key`, accountID))
	if err != nil {
		return nil, err
	}
	return res.Strings("image_key")
}

// ownedApps selects the ids of the account's apps (?1 is the account id).
const ownedApps = "(SELECT id FROM apps WHERE account_id = ?1)"

// DeleteAccount deletes, in one batch, everything spec 2 "Account
// deletion" step 2 names: the account's apps with their keys, monthly
// usage, analytics, tenants, custom emoji rows, webhooks and deliveries,
// undelivered webhook events and their delivery progress;
// its team members, invites and memberships in other teams; thresholds,
// legacy sessions, the waitlist entry of its email (or linked to it), and
// the account. It also remembers the identity-provider user id for
// DeletedUserMemory and forgets older ones. Every table is named even where
// a foreign key would cascade, so the list is the spec's list.
func (r *Repo) DeleteAccount(ctx context.Context, a Account) error {
	now := r.nowMs()
	id, email := a.ID, NormalizeEmail(a.EmailOrEmpty())
	q := func(sql string, args ...any) store.Stmt { return store.Q(sql, append([]any{id}, args...)...) }
	_, err := r.db.Batch(ctx, []store.Stmt{
		q(`DELETE FROM webhook_deliveries WHERE webhook_id IN
			(SELECT id FROM webhooks WHERE app_id IN ` + ownedApps + `)`),
		q("DELETE FROM webhook_queue WHERE app_id IN " + ownedApps),
		q("DELETE FROM webhook_fanouts WHERE app_id IN " + ownedApps),
		q("DELETE FROM webhooks WHERE app_id IN " + ownedApps),
		q("DELETE FROM events WHERE app_id IN " + ownedApps),
		q("DELETE FROM custom_emoji WHERE app_id IN " + ownedApps),
		q("DELETE FROM tenants WHERE app_id IN " + ownedApps),
		q("DELETE FROM api_keys WHERE app_id IN " + ownedApps),
		q("DELETE FROM usage_monthly WHERE app_id IN " + ownedApps),
		q("DELETE FROM query_daily WHERE app_id IN " + ownedApps),
		q("DELETE FROM apps WHERE account_id = ?1"),
		q("DELETE FROM team_members WHERE owner_id = ?1 OR member_id = ?1"),
		q("DELETE FROM invites WHERE owner_id = ?1"),
		q("UPDATE invites SET used_by = NULL WHERE used_by = ?1"),
		q("UPDATE invites SET created_by = NULL WHERE created_by = ?1"),
		q("DELETE FROM usage_thresholds WHERE account_id = ?1"),
		q("DELETE FROM sessions WHERE account_id = ?1"),
		q("DELETE FROM waitlist WHERE account_id = ?1 OR email = ?2", email),
		q("DELETE FROM accounts WHERE id = ?1"),
		store.Q(`INSERT INTO deleted_users (idp_user_id, deleted_at) VALUES (?, ?)
			ON CONFLICT (idp_user_id) DO UPDATE SET deleted_at = excluded.deleted_at`, a.IdpUserID, now),
		store.Q("DELETE FROM deleted_users WHERE deleted_at <= ?", now-DeletedUserMemory.Milliseconds()),
	})
	return err
}

// RecentlyDeleted reports whether the identity-provider user's account was
// deleted less than DeletedUserMemory ago: such a token gets 401 instead of
// a new empty account (spec 2, Account deletion 5).
func (r *Repo) RecentlyDeleted(ctx context.Context, subject string) (bool, error) {
	row, err := r.db.First(ctx, store.Q("SELECT 1 AS hit FROM deleted_users WHERE idp_user_id = ? AND deleted_at > ?",
		subject, r.nowMs()-DeletedUserMemory.Milliseconds()))
	return row != nil, err
}
