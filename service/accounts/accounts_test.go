//go:build !js

package accounts

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/apikey"
	"github.com/emojisearch/emojisearch/service/auth"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/store"
	"github.com/emojisearch/emojisearch/service/store/sqlitedb"
)

var bg = context.Background()

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func setup(t *testing.T) (*Repo, *sqlitedb.DB, *clock) {
	t.Helper()
	db, err := sqlitedb.Open(bg, ":memory:", sqlitedb.RepoMigrations())
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	c := &clock{t: time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)}
	return New(NewConfig(db).WithClock(c.now)), db, c
}

func account(t *testing.T, r *Repo, sub, email, plan string) Account {
	t.Helper()
	a, err := r.CreateAccount(bg, auth.Identity{Subject: sub, Email: email, EmailVerified: email != "", Name: "N " + sub})
	require.NoError(t, err)
	if plan != plans.Free {
		require.NoError(t, r.SetPlan(bg, a.ID, plan))
		a.Plan = plan
	}
	return a
}

func app(t *testing.T, r *Repo, a Account, env string) App {
	t.Helper()
	ap, err := r.CreateApp(bg, a.ID, "app of "+a.ID, env, 100)
	require.NoError(t, err)
	return ap
}

func count(t *testing.T, db store.DB, sql string, args ...any) int64 {
	t.Helper()
	row, err := db.First(bg, store.Q(sql, args...))
	require.NoError(t, err)
	n, err := row.Int("n")
	require.NoError(t, err)
	return n
}

func TestCreateAccountOnceUnderConcurrency(t *testing.T) {
	r, db, _ := setup(t)
	var wg sync.WaitGroup
	ids := make([]string, 20)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, err := r.CreateAccount(bg, auth.Identity{Subject: "user_1", Email: "A@x.io", EmailVerified: true})
			assert.NoError(t, err)
			ids[i] = a.ID
		}()
	}
	wg.Wait()
	for _, id := range ids {
		assert.Equal(t, ids[0], id)
	}
	assert.Equal(t, int64(1), count(t, db, "SELECT count(*) AS n FROM accounts"))
	a, err := r.AccountByIdentity(bg, "user_1")
	require.NoError(t, err)
	assert.Equal(t, plans.Free, a.Plan)
	assert.Equal(t, "A@x.io", a.EmailOrEmpty())

	a, err = r.RefreshProfile(bg, a, auth.Identity{Subject: "user_1", Email: "b@x.io", Name: "Bee"})
	require.NoError(t, err)
	again, err := r.Account(bg, a.ID)
	require.NoError(t, err)
	assert.Equal(t, a, again)
	assert.Equal(t, "Bee", again.Name)

	_, err = r.AccountByIdentity(bg, "nobody")
	assert.ErrorIs(t, err, ErrNotFound)
	assert.ErrorIs(t, r.SetPlan(bg, "acc_none", plans.Pro), ErrNotFound)
	assert.Error(t, r.SetPlan(bg, a.ID, "gold"))
}

func TestMaxAppsUnderConcurrency(t *testing.T) {
	r, db, _ := setup(t)
	a := account(t, r, "u", "u@x.io", plans.Free)
	free, _ := plans.Get(plans.Free)
	var wg sync.WaitGroup
	var mu sync.Mutex
	made, refused := 0, 0
	for range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := r.CreateApp(bg, a.ID, "x", EnvProduction, free.MaxApps)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				made++
			case assert.ErrorIs(t, err, ErrMaxApps):
				refused++
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, free.MaxApps, made)
	assert.Equal(t, 30-free.MaxApps, refused)
	assert.Equal(t, int64(free.MaxApps), count(t, db, "SELECT count(*) AS n FROM apps WHERE account_id = ?", a.ID))

	_, err := r.CreateApp(bg, "acc_gone", "x", EnvProduction, 5)
	assert.ErrorIs(t, err, ErrNotFound)
}

func TestAppsAndRoles(t *testing.T) {
	r, db, _ := setup(t)
	owner := account(t, r, "owner", "o@x.io", plans.Pro)
	member := account(t, r, "member", "m@x.io", plans.Free)
	stranger := account(t, r, "stranger", "s@x.io", plans.Free)
	oa := app(t, r, owner, EnvProduction)
	ma := app(t, r, member, EnvDevelopment)
	_, err := db.Run(bg, store.Q("INSERT INTO team_members (id, owner_id, member_id, role, created_at) VALUES ('tm_1', ?, ?, 'developer', 1)", owner.ID, member.ID))
	require.NoError(t, err)

	list, err := r.ListApps(bg, member.ID)
	require.NoError(t, err)
	require.Len(t, list, 2)
	assert.Equal(t, ma.ID, list[0].ID)
	assert.Equal(t, RoleOwner, list[0].Role)
	assert.Equal(t, oa.ID, list[1].ID, "own apps first, then team apps")
	assert.Equal(t, RoleDeveloper, list[1].Role)
	assert.Equal(t, "N owner", list[1].OwnerName)
	assert.Equal(t, owner.ID, list[1].AccountID)

	e, err := r.AppFor(bg, oa.ID, member.ID)
	require.NoError(t, err)
	assert.Equal(t, RoleDeveloper, e.Role)
	assert.Equal(t, plans.Pro, e.OwnerPlan)
	e, err = r.AppFor(bg, oa.ID, owner.ID)
	require.NoError(t, err)
	assert.Equal(t, RoleOwner, e.Role)
	_, err = r.AppFor(bg, oa.ID, stranger.ID)
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = r.AppFor(bg, "app_none", owner.ID)
	assert.ErrorIs(t, err, ErrNotFound)

	teams, err := r.Teams(bg, member.ID)
	require.NoError(t, err)
	assert.Equal(t, []Team{{OwnerID: owner.ID, OwnerName: "N owner", Role: RoleDeveloper}}, teams)
	ta, err := r.TeamRole(bg, owner.ID, member.ID)
	require.NoError(t, err)
	assert.Equal(t, RoleDeveloper, ta.Role)

	// Memberships count only while the owner's plan includes teams.
	require.NoError(t, r.SetPlan(bg, owner.ID, plans.Solo))
	_, err = r.AppFor(bg, oa.ID, member.ID)
	assert.ErrorIs(t, err, ErrNotFound)
	list, err = r.ListApps(bg, member.ID)
	require.NoError(t, err)
	assert.Len(t, list, 1)
	teams, err = r.Teams(bg, member.ID)
	require.NoError(t, err)
	assert.Empty(t, teams)
	_, err = r.TeamRole(bg, owner.ID, member.ID)
	assert.ErrorIs(t, err, ErrNotFound)
	ta, err = r.TeamRole(bg, owner.ID, owner.ID)
	require.NoError(t, err)
	assert.Equal(t, RoleOwner, ta.Role)

	name, set := "renamed", SetOpenmoji
	up, err := r.UpdateApp(bg, oa.ID, AppPatch{Name: &name, EmojiSet: &set})
	require.NoError(t, err)
	assert.Equal(t, "renamed", up.Name)
	assert.Equal(t, SetOpenmoji, up.EmojiSet)
	up, err = r.UpdateApp(bg, oa.ID, AppPatch{})
	require.NoError(t, err)
	assert.Equal(t, "renamed", up.Name)
	_, err = r.UpdateApp(bg, "app_none", AppPatch{Name: &name})
	assert.ErrorIs(t, err, ErrNotFound)
	bad := "comic"
	_, err = r.UpdateApp(bg, oa.ID, AppPatch{EmojiSet: &bad})
	assert.ErrorIs(t, err, store.ErrConstraint, "the schema refuses unknown sets too")
}

func TestRoleRank(t *testing.T) {
	order := []string{RoleViewer, RoleDeveloper, RoleAdmin, RoleOwner}
	for i, lo := range order {
		for j, hi := range order {
			assert.Equal(t, j >= i, RoleAtLeast(hi, lo), "%s >= %s", hi, lo)
		}
		assert.False(t, RoleAtLeast("", lo))
		assert.False(t, RoleAtLeast("root", lo))
	}
	assert.False(t, MemberRole(RoleOwner))
	assert.True(t, MemberRole(RoleViewer))
}

func TestKeyLifecycle(t *testing.T) {
	r, db, c := setup(t)
	a := account(t, r, "u", "u@x.io", plans.Solo)
	ap := app(t, r, a, EnvProduction)
	k, full, err := r.CreateKey(bg, ap.ID, apikey.Publishable, []string{"https://a.example"})
	require.NoError(t, err)
	kind, ok := apikey.KindOf(full)
	assert.True(t, ok)
	assert.Equal(t, apikey.Publishable, kind)
	assert.Equal(t, full[:12], k.Hint)
	assert.Zero(t, count(t, db, "SELECT count(*) AS n FROM api_keys WHERE hash = ? OR hint = ?", full, full), "the full key is never stored")

	rec, found, err := r.LookupKey(bg, apikey.Hash(full))
	require.NoError(t, err)
	require.True(t, found)
	assert.Equal(t, KeyRecord{KeyID: k.ID, AppID: ap.ID, AccountID: a.ID, Kind: apikey.Publishable,
		AllowedOrigins: []string{"https://a.example"}, AppEnvironment: EnvProduction, Plan: plans.Solo}, rec)
	_, found, err = r.LookupKey(bg, apikey.Hash("pk_live_unknown"))
	require.NoError(t, err)
	assert.False(t, found)

	k2, _, err := r.CreateKey(bg, ap.ID, apikey.Secret, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{}, k2.AllowedOrigins)
	list, err := r.ListKeys(bg, ap.ID)
	require.NoError(t, err)
	require.Len(t, list, 2)
	assert.Equal(t, k.ID, list[0].ID)
	assert.Equal(t, []string{}, list[1].AllowedOrigins)

	up, err := r.SetAllowedOrigins(bg, k.ID, []string{"https://b.example", "https://c.example"})
	require.NoError(t, err)
	assert.Equal(t, []string{"https://b.example", "https://c.example"}, up.AllowedOrigins)

	c.add(time.Second)
	rev, err := r.RevokeKey(bg, k.ID)
	require.NoError(t, err)
	require.NotNil(t, rev.RevokedAt)
	first := *rev.RevokedAt
	c.add(time.Second)
	rev, err = r.RevokeKey(bg, k.ID)
	require.NoError(t, err)
	assert.Equal(t, first, *rev.RevokedAt, "revoking twice keeps the first time")
	rec, found, err = r.LookupKey(bg, apikey.Hash(full))
	require.NoError(t, err)
	assert.True(t, found)
	assert.True(t, rec.Revoked)
	_, err = r.SetAllowedOrigins(bg, k.ID, nil)
	assert.ErrorIs(t, err, ErrKeyRevoked)
	_, err = r.SetAllowedOrigins(bg, "key_none", nil)
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = r.RevokeKey(bg, "key_none")
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = r.Key(bg, "key_none")
	assert.ErrorIs(t, err, ErrNotFound)
	_, _, err = r.CreateKey(bg, "app_none", apikey.Secret, nil)
	assert.ErrorIs(t, err, ErrNotFound)
	_, _, err = r.CreateKey(bg, ap.ID, "admin", nil)
	assert.ErrorIs(t, err, apikey.ErrKind)
}

func TestUsageUnderParallelFlushes(t *testing.T) {
	r, db, _ := setup(t)
	a := account(t, r, "u", "u@x.io", plans.Free)
	other := account(t, r, "v", "v@x.io", plans.Free)
	a1, a2 := app(t, r, a, EnvProduction), app(t, r, a, EnvProduction)
	o1 := app(t, r, other, EnvProduction)
	const period = "2026-11"
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			assert.NoError(t, r.AddUsage(bg, []Delta{
				{a1.ID, period, plans.SemanticCalls, 2},
				{a2.ID, period, plans.SemanticCalls, 1},
				{a1.ID, period, plans.SemanticCalls, 1}, // merged with the first
				{a2.ID, period, plans.ImageClassifications, int64(i % 2)},
				{o1.ID, period, plans.SemanticCalls, 5},
				{"app_deleted", period, plans.SemanticCalls, 7}, // dropped, not failing the batch
				{a1.ID, "2026-10", plans.SemanticCalls, 1},
			}))
		}()
	}
	wg.Wait()
	total, err := r.AccountTotal(bg, a.ID, period, plans.SemanticCalls)
	require.NoError(t, err)
	assert.Equal(t, int64(50*4), total)
	total, err = r.AccountTotal(bg, a.ID, period, plans.ImageClassifications)
	require.NoError(t, err)
	assert.Equal(t, int64(25), total)
	total, err = r.AccountTotal(bg, a.ID, "2026-10", plans.SemanticCalls)
	require.NoError(t, err)
	assert.Equal(t, int64(50), total)
	total, err = r.AccountTotal(bg, a.ID, "2026-09", plans.SemanticCalls)
	require.NoError(t, err)
	assert.Zero(t, total)
	assert.Zero(t, count(t, db, "SELECT count(*) AS n FROM usage_monthly WHERE app_id = 'app_deleted'"))

	u, err := r.UsageOf(bg, a.ID, a1.ID, period)
	require.NoError(t, err)
	assert.Equal(t, Usage{Account: 200, App: 150}, u[plans.SemanticCalls])
	assert.Equal(t, Usage{Account: 25, App: 0}, u[plans.ImageClassifications])
	assert.Equal(t, Usage{}, u[plans.CustomEmoji])

	_, err = db.Run(bg, store.Q(`INSERT INTO custom_emoji (id, app_id, scope, shortcode, image_key, content_type, source, bytes, created_at)
		VALUES ('emo_1', ?, '', 'party', 'custom/x/_/emo_1.png', 'image/png', 'upload', 10, 1)`, a2.ID))
	require.NoError(t, err)
	total, err = r.AccountTotal(bg, a.ID, "1999-01", plans.CustomEmoji)
	require.NoError(t, err)
	assert.Equal(t, int64(1), total, "custom_emoji counts what is stored now, in every period")
	u, err = r.UsageOf(bg, a.ID, a2.ID, "1999-01")
	require.NoError(t, err)
	assert.Equal(t, Usage{Account: 1, App: 1}, u[plans.CustomEmoji])
	assert.Equal(t, Usage{}, u[plans.SemanticCalls])

	require.NoError(t, r.AddUsage(bg, nil))
	require.NoError(t, r.AddUsage(bg, []Delta{{a1.ID, period, plans.SemanticCalls, 0}}))
	n, err := r.AppCount(bg, a.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(2), n)
}

func TestWaitlist(t *testing.T) {
	r, db, c := setup(t)
	require.NoError(t, r.JoinWaitlist(bg, WaitlistEntry{Email: " Ann@X.io ", Plan: plans.Pro, Source: SourceWebsite}))
	c.add(time.Hour)
	a := account(t, r, "ann", "ann@x.io", plans.Free)
	p, err := r.WaitlistPlan(bg, a)
	require.NoError(t, err)
	assert.Equal(t, plans.Pro, p, "the entry of the account's email")
	require.NoError(t, r.JoinWaitlist(bg, WaitlistEntry{Email: "ANN@x.io", Plan: plans.Scale, Source: SourceUpgrade, AccountID: a.ID}))
	assert.Equal(t, int64(1), count(t, db, "SELECT count(*) AS n FROM waitlist"))
	row, err := db.First(bg, store.Q("SELECT * FROM waitlist"))
	require.NoError(t, err)
	created, _ := row.Int("created_at")
	updated, _ := row.Int("updated_at")
	assert.Less(t, created, updated, "the first sign-up time is kept")
	p, err = r.WaitlistPlan(bg, a)
	require.NoError(t, err)
	assert.Equal(t, plans.Scale, p)

	noEmail := account(t, r, "anon", "", plans.Free)
	p, err = r.WaitlistPlan(bg, noEmail)
	require.NoError(t, err)
	assert.Empty(t, p)

	c.add(365 * 24 * time.Hour)
	n, err := r.PruneWaitlist(bg, c.now().AddDate(0, -12, 0))
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)
}

// tables lists every table of the schema with the column that ties a row to
// an account (directly or through its app).
var tables = []string{"accounts", "apps", "api_keys", "usage_monthly", "team_members", "invites",
	"waitlist", "tenants", "custom_emoji", "webhooks", "webhook_deliveries", "usage_thresholds",
	"query_daily", "sessions"}

// fill gives an account rows in every table it can own.
func fill(t *testing.T, db store.DB, a Account, ap App, other Account, tag string) {
	// The first fill links both accounts in both directions already.
	link := tag == "g1"
	t.Helper()
	stmts := []store.Stmt{
		store.Q("INSERT INTO api_keys (id, app_id, kind, hash, hint, created_at) VALUES (?, ?, 'secret', ?, 'sk_live_x', 1)", "key_"+tag, ap.ID, "hash_"+tag),
		store.Q("INSERT INTO usage_monthly (app_id, period, metric, count) VALUES (?, '2026-11', 'semantic_calls', 3)", ap.ID),
		store.Q("INSERT INTO query_daily (app_id, day, qkey, query, searches, misses) VALUES (?, '2026-11-20', '00000000000000ca', 'cat', 3, 1)", ap.ID),
		store.Q("INSERT INTO tenants (id, app_id, external_id, created_at) VALUES (?, ?, 'cust-1', 1)", "ten_"+tag, ap.ID),
		store.Q(`INSERT INTO custom_emoji (id, app_id, tenant_id, scope, shortcode, image_key, content_type, source, bytes, created_at)
			VALUES (?, ?, ?, ?, 'party', ?, 'image/png', 'upload', 10, 1)`, "emo_"+tag, ap.ID, "ten_"+tag, "ten_"+tag, "custom/"+ap.ID+"/ten_"+tag+"/emo.png"),
		store.Q(`INSERT INTO custom_emoji (id, app_id, scope, shortcode, image_key, content_type, source, bytes, created_at)
			VALUES (?, ?, '', 'party', ?, 'image/png', 'upload', 10, 1)`, "emo2_"+tag, ap.ID, "custom/"+ap.ID+"/_/emo2.png"),
		store.Q("INSERT INTO webhooks (id, app_id, url, secret, created_at) VALUES (?, ?, 'https://h.example', 'whsec_x', 1)", "wh_"+tag, ap.ID),
		store.Q("INSERT INTO webhook_deliveries (id, webhook_id, event_id, event, ok, duration_ms, created_at) VALUES (?, ?, 'evt_1', 'webhook.test', 1, 5, 1)", "dl_"+tag, "wh_"+tag),
		store.Q("INSERT INTO usage_thresholds (account_id, period, metric, threshold, limit_value, event_id, fired_at) VALUES (?, '2026-11', 'semantic_calls', 80, 100, 'evt_2', 1)", a.ID),
		store.Q("INSERT INTO sessions (id, account_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, 1, 2)", "ses_"+tag, a.ID, "tok_"+tag),
		store.Q("INSERT INTO invites (id, owner_id, token_hash, role, created_at) VALUES (?, ?, ?, 'viewer', 1)", "inv_"+tag, a.ID, "ih_"+tag),
		store.Q("INSERT INTO invites (id, owner_id, created_by, token_hash, role, created_at, used_at, used_by) VALUES (?, ?, ?, ?, 'viewer', 1, 2, ?)", "inv_used_"+tag, other.ID, other.ID, "ih2_"+tag, a.ID),
	}
	if link {
		stmts = append(stmts,
			store.Q("INSERT INTO team_members (id, owner_id, member_id, role, created_at) VALUES (?, ?, ?, 'viewer', 1)", "tm_own_"+tag, a.ID, other.ID),
			store.Q("INSERT INTO team_members (id, owner_id, member_id, role, created_at) VALUES (?, ?, ?, 'admin', 1)", "tm_in_"+tag, other.ID, a.ID))
	}
	if e := a.EmailOrEmpty(); e != "" {
		stmts = append(stmts, store.Q("INSERT INTO waitlist (email, plan, source, created_at, updated_at) VALUES (?, 'pro', 'website', 1, 1)", NormalizeEmail(e)))
	}
	_, err := db.Batch(bg, stmts)
	require.NoError(t, err)
}

func TestDeleteAccountLeavesNoRows(t *testing.T) {
	r, db, c := setup(t)
	gone := account(t, r, "gone", "Gone@X.io", plans.Scale)
	keep := account(t, r, "keep", "keep@x.io", plans.Scale)
	g1, g2 := app(t, r, gone, EnvProduction), app(t, r, gone, EnvDevelopment)
	k1 := app(t, r, keep, EnvProduction)
	fill(t, db, gone, g1, keep, "g1")
	fill(t, db, keep, k1, gone, "k1")
	_, err := db.Run(bg, store.Q("INSERT INTO api_keys (id, app_id, kind, hash, hint, created_at) VALUES ('key_g2', ?, 'publishable', 'hash_g2', 'pk', 1)", g2.ID))
	require.NoError(t, err)
	require.NoError(t, r.JoinWaitlist(bg, WaitlistEntry{Email: "other@x.io", Plan: plans.Scale, Source: SourceUpgrade, AccountID: gone.ID}))

	before := map[string]int64{}
	for _, tb := range tables {
		before[tb] = count(t, db, "SELECT count(*) AS n FROM "+tb)
	}
	imgs, err := r.DeletionImages(bg, gone.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"custom/" + g1.ID + "/_/emo2.png", "custom/" + g1.ID + "/ten_g1/emo.png"}, imgs)

	require.NoError(t, r.DeleteAccount(bg, gone))

	// Nothing of the deleted account is left in any table.
	gid := gone.ID
	apps := []any{g1.ID, g2.ID}
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{"SELECT count(*) AS n FROM accounts WHERE id = ?1", []any{gid}},
		{"SELECT count(*) AS n FROM apps WHERE account_id = ?1", []any{gid}},
		{"SELECT count(*) AS n FROM api_keys WHERE app_id IN (?, ?)", apps},
		{"SELECT count(*) AS n FROM usage_monthly WHERE app_id IN (?, ?)", apps},
		{"SELECT count(*) AS n FROM query_daily WHERE app_id IN (?, ?)", apps},
		{"SELECT count(*) AS n FROM tenants WHERE app_id IN (?, ?)", apps},
		{"SELECT count(*) AS n FROM custom_emoji WHERE app_id IN (?, ?)", apps},
		{"SELECT count(*) AS n FROM webhooks WHERE app_id IN (?, ?)", apps},
		{"SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = 'wh_g1'", nil},
		{"SELECT count(*) AS n FROM team_members WHERE owner_id = ?1 OR member_id = ?1", []any{gid}},
		{"SELECT count(*) AS n FROM invites WHERE owner_id = ?1 OR used_by = ?1 OR created_by = ?1", []any{gid}},
		{"SELECT count(*) AS n FROM usage_thresholds WHERE account_id = ?1", []any{gid}},
		{"SELECT count(*) AS n FROM sessions WHERE account_id = ?1", []any{gid}},
		{"SELECT count(*) AS n FROM waitlist WHERE account_id = ?1 OR email = 'gone@x.io'", []any{gid}},
	} {
		assert.Zero(t, count(t, db, q.sql, q.args...), q.sql)
	}
	// The other account keeps exactly its own rows.
	after := map[string]int64{}
	for _, tb := range tables {
		after[tb] = count(t, db, "SELECT count(*) AS n FROM "+tb)
	}
	assert.Equal(t, map[string]int64{
		"accounts": before["accounts"] - 1, "apps": before["apps"] - 2, "api_keys": before["api_keys"] - 2,
		"usage_monthly": before["usage_monthly"] - 1, "team_members": before["team_members"] - 2,
		"invites": before["invites"] - 2, "waitlist": before["waitlist"] - 2, "tenants": before["tenants"] - 1,
		"custom_emoji": before["custom_emoji"] - 2, "webhooks": before["webhooks"] - 1,
		"webhook_deliveries": before["webhook_deliveries"] - 1, "usage_thresholds": before["usage_thresholds"] - 1,
		"query_daily": before["query_daily"] - 1, "sessions": before["sessions"] - 1,
	}, after)
	assert.Equal(t, int64(1), count(t, db, "SELECT count(*) AS n FROM invites WHERE id = 'inv_used_g1' AND used_by IS NULL AND created_by = ?", keep.ID),
		"an invite of another owner that the deleted account used stays, without the link")

	// The identity-provider user is remembered for ten minutes.
	del, err := r.RecentlyDeleted(bg, "gone")
	require.NoError(t, err)
	assert.True(t, del)
	del, err = r.RecentlyDeleted(bg, "keep")
	require.NoError(t, err)
	assert.False(t, del)
	c.add(DeletedUserMemory)
	del, err = r.RecentlyDeleted(bg, "gone")
	require.NoError(t, err)
	assert.False(t, del)
	// A later deletion forgets the expired memory.
	require.NoError(t, r.DeleteAccount(bg, keep))
	assert.Equal(t, int64(1), count(t, db, "SELECT count(*) AS n FROM deleted_users"))
	for _, tb := range tables {
		assert.Zero(t, count(t, db, "SELECT count(*) AS n FROM "+tb), tb)
	}
}

func TestSQLMetacharactersStoredVerbatim(t *testing.T) {
	r, _, _ := setup(t)
	evil := `Robert'); DROP TABLE apps;-- "%_\`
	a, err := r.CreateAccount(bg, auth.Identity{Subject: evil, Email: evil + "@x.io", Name: evil})
	require.NoError(t, err)
	ap, err := r.CreateApp(bg, a.ID, evil, EnvProduction, 5)
	require.NoError(t, err)
	got, err := r.AppFor(bg, ap.ID, a.ID)
	require.NoError(t, err)
	assert.Equal(t, evil, got.Name)
	assert.Equal(t, evil, got.OwnerName)
	k, _, err := r.CreateKey(bg, ap.ID, apikey.Publishable, []string{evil})
	require.NoError(t, err)
	k, err = r.Key(bg, k.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{evil}, k.AllowedOrigins)
	byIdp, err := r.AccountByIdentity(bg, evil)
	require.NoError(t, err)
	assert.Equal(t, a.ID, byIdp.ID)
	_, err = r.AccountByIdentity(bg, "%")
	assert.ErrorIs(t, err, ErrNotFound)
}

func TestPeriod(t *testing.T) {
	loc := time.FixedZone("east", 5*3600)
	assert.Equal(t, "2026-11", Period(time.Date(2026, 12, 1, 3, 0, 0, 0, loc)), "UTC month")
	assert.Regexp(t, `^app_[0-9a-f]{24}$`, NewID("app"))
	assert.NotEqual(t, NewID("x"), NewID("x"))
}
