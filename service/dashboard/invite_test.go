//go:build !js

package dashboard

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/store"
)

// invite creates an invite through the API as caller on owner's team and
// returns its id and link token.
func (e *env) invite(caller string, owner accounts.Account, role, email string) (string, string) {
	e.t.Helper()
	body := map[string]any{"role": role}
	if email != "" {
		body["email"] = email
	}
	r := e.do(req{method: "POST", path: "/api/team/invites?owner=" + owner.ID, token: caller, body: body})
	require.Equal(e.t, http.StatusCreated, r.Code, r.Body.String())
	m := r.json()
	token, ok := strings.CutPrefix(m["url"].(string), InvitePath)
	require.True(e.t, ok, m["url"])
	return m["invite"].(map[string]any)["id"].(string), token
}

func (e *env) accept(caller, token string) resp {
	e.t.Helper()
	return e.do(req{method: "POST", path: "/api/invites/" + token + "/accept", token: caller})
}

func TestCreateInvite(t *testing.T) {
	e := newEnv(t)
	owner := e.user("owner", "o@x.io", plans.Pro)
	r := e.do(req{method: "POST", path: "/api/team/invites", token: "owner", body: map[string]any{"role": "developer"}})
	require.Equal(t, http.StatusCreated, r.Code, r.Body.String())
	m := r.json()
	inv := m["invite"].(map[string]any)
	now := float64(e.clock.now().UnixMilli())
	assert.Equal(t, map[string]any{"id": inv["id"], "role": "developer", "email": nil, "createdAt": now,
		"expiresAt": now + float64(7*24*time.Hour/time.Millisecond), "createdBy": owner.ID}, inv)
	assert.Regexp(t, `^/invite/[A-Za-z0-9_-]{43}$`, m["url"], "relative without a dashboard URL")

	r = e.do(req{method: "POST", path: "/api/team/invites", token: "owner", body: map[string]any{"role": "admin", "email": "  Pat@X.io "}})
	require.Equal(t, http.StatusCreated, r.Code, r.Body.String())
	assert.Equal(t, "Pat@X.io", r.json()["invite"].(map[string]any)["email"], "trimmed, case kept")
	r = e.do(req{method: "POST", path: "/api/team/invites", token: "owner", body: map[string]any{"role": "viewer", "email": ""}})
	require.Equal(t, http.StatusCreated, r.Code, r.Body.String())
	assert.Nil(t, r.json()["invite"].(map[string]any)["email"], "an empty email is a link for anyone")
	r = e.do(req{method: "POST", path: "/api/team/invites", token: "owner", body: map[string]any{"role": "viewer", "email": nil}})
	require.Equal(t, http.StatusCreated, r.Code, r.Body.String())

	for _, base := range []string{"https://dash.example", "https://dash.example/", "https://example.com/dashboard/"} {
		e := newEnv(t, func(c Config) Config { return c.WithDashboardURL(base) })
		e.user("owner", "o@x.io", plans.Scale)
		r := e.do(req{method: "POST", path: "/api/team/invites", token: "owner", body: map[string]any{"role": "viewer"}})
		require.Equal(t, http.StatusCreated, r.Code, r.Body.String())
		assert.Regexp(t, `^`+strings.TrimRight(base, "/")+`/invite/[A-Za-z0-9_-]{43}$`, r.json()["url"])
	}
	for _, bad := range []string{"dash.example", "ftp://dash.example", "https://", "https://u:p@dash.example", "https://dash.example/?x=1", "https://dash.example/#f"} {
		_, err := New(NewConfig(e.db, e.auth).WithWaitlist([]string{site}, e.limiter).WithDashboardURL(bad))
		assert.ErrorContains(t, err, "dashboard URL", bad)
	}

	bad := []struct {
		name  string
		body  any
		field string
	}{
		{"owner role", map[string]any{"role": "owner"}, "role"},
		{"unknown role", map[string]any{"role": "superuser"}, "role"},
		{"role in capitals", map[string]any{"role": "ADMIN"}, "role"},
		{"no role", map[string]any{"email": "a@x.io"}, "role"},
		{"role of the wrong type", map[string]any{"role": 3}, "role"},
		{"email without @", map[string]any{"role": "viewer", "email": "nobody"}, "email"},
		{"email with a name", map[string]any{"role": "viewer", "email": "Pat <pat@x.io>"}, "email"},
		{"email too long", map[string]any{"role": "viewer", "email": strings.Repeat("a", 250) + "@x.io"}, "email"},
		{"email of the wrong type", map[string]any{"role": "viewer", "email": []string{"a@x.io"}}, "email"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			r := e.do(req{method: "POST", path: "/api/team/invites", token: "owner", body: c.body})
			assert.Equal(t, http.StatusBadRequest, r.Code, r.Body.String())
			assert.Equal(t, "invalid_request", r.errCode())
			assert.Equal(t, c.field, r.errField("field"))
		})
	}
	assert.Equal(t, int64(4), e.count("SELECT count(*) AS n FROM invites"))
}

func TestOpenInviteLimit(t *testing.T) {
	e := newEnv(t)
	owner := e.user("owner", "o@x.io", plans.Pro)
	var ids []string
	for range accounts.MaxOpenInvites {
		id, _ := e.invite("owner", owner, "viewer", "")
		ids = append(ids, id)
	}
	r := e.do(req{method: "POST", path: "/api/team/invites", token: "owner", body: map[string]any{"role": "viewer"}})
	assert.Equal(t, http.StatusConflict, r.Code)
	assert.Equal(t, "invite_limit", r.errCode())
	// Withdrawn and expired invites do not count.
	require.Equal(t, http.StatusOK, e.do(req{method: "DELETE", path: "/api/team/invites/" + ids[0], token: "owner"}).Code)
	e.invite("owner", owner, "viewer", "")
	e.clock.add(accounts.InviteValidity)
	for range accounts.MaxOpenInvites {
		e.invite("owner", owner, "viewer", "")
	}
}

// TestAcceptStates has one row per invite state and acceptance error of
// spec 2 (States and transitions, Authentication 7, Errors).
func TestAcceptStates(t *testing.T) {
	type fixture struct {
		e     *env
		owner accounts.Account
	}
	cases := []struct {
		name string
		// setup creates the invite and returns the caller and the token.
		setup  func(f fixture) (caller, token string)
		status int
		code   string
	}{
		{"open link for anyone", func(f fixture) (string, string) {
			_, tok := f.e.invite("owner", f.owner, "developer", "")
			return "guest", tok
		}, http.StatusOK, ""},
		{"open link for the caller's email in another case", func(f fixture) (string, string) {
			_, tok := f.e.invite("owner", f.owner, "developer", "GUEST@X.io")
			return "guest", tok
		}, http.StatusOK, ""},
		{"email with quotes and wildcards", func(f fixture) (string, string) {
			f.e.user("quote", "o'hara%_@x.io", plans.Free)
			_, tok := f.e.invite("owner", f.owner, "viewer", "O'Hara%_@x.io")
			return "quote", tok
		}, http.StatusOK, ""},
		{"a moment before 7 days", func(f fixture) (string, string) {
			_, tok := f.e.invite("owner", f.owner, "viewer", "")
			f.e.clock.add(accounts.InviteValidity - time.Millisecond)
			return "guest", tok
		}, http.StatusOK, ""},
		{"created by an admin", func(f fixture) (string, string) {
			_, tok := f.e.invite("admin", f.owner, "admin", "")
			return "guest", tok
		}, http.StatusOK, ""},
		{"not signed in", func(f fixture) (string, string) {
			_, tok := f.e.invite("owner", f.owner, "viewer", "")
			return "", tok
		}, http.StatusUnauthorized, "unauthorized"},
		{"unknown token", func(f fixture) (string, string) {
			return "guest", strings.Repeat("A", 43)
		}, http.StatusNotFound, "invite_not_found"},
		{"malformed token", func(f fixture) (string, string) {
			return "guest", "not-a-token"
		}, http.StatusNotFound, "invite_not_found"},
		{"SQL in the token", func(f fixture) (string, string) {
			return "guest", url.PathEscape("x' OR '1'='1")
		}, http.StatusNotFound, "invite_not_found"},
		{"the hash instead of the token", func(f fixture) (string, string) {
			_, tok := f.e.invite("owner", f.owner, "viewer", "")
			return "guest", accounts.HashInviteToken(tok)
		}, http.StatusNotFound, "invite_not_found"},
		{"withdrawn", func(f fixture) (string, string) {
			id, tok := f.e.invite("owner", f.owner, "viewer", "")
			require.Equal(f.e.t, http.StatusOK, f.e.do(req{method: "DELETE", path: "/api/team/invites/" + id, token: "owner"}).Code)
			return "guest", tok
		}, http.StatusNotFound, "invite_not_found"},
		{"used", func(f fixture) (string, string) {
			_, tok := f.e.invite("owner", f.owner, "viewer", "")
			f.e.user("first", "first@x.io", plans.Free)
			require.Equal(f.e.t, http.StatusOK, f.e.accept("first", tok).Code)
			return "guest", tok
		}, http.StatusGone, "invite_used"},
		{"used by the caller", func(f fixture) (string, string) {
			_, tok := f.e.invite("owner", f.owner, "viewer", "")
			require.Equal(f.e.t, http.StatusOK, f.e.accept("guest", tok).Code)
			return "guest", tok
		}, http.StatusGone, "invite_used"},
		{"used, then expired", func(f fixture) (string, string) {
			_, tok := f.e.invite("owner", f.owner, "viewer", "")
			f.e.user("first", "first@x.io", plans.Free)
			require.Equal(f.e.t, http.StatusOK, f.e.accept("first", tok).Code)
			f.e.clock.add(30 * 24 * time.Hour)
			return "guest", tok
		}, http.StatusGone, "invite_used"},
		{"exactly 7 days old", func(f fixture) (string, string) {
			_, tok := f.e.invite("owner", f.owner, "viewer", "")
			f.e.clock.add(accounts.InviteValidity)
			return "guest", tok
		}, http.StatusGone, "invite_expired"},
		{"expired with a matching email", func(f fixture) (string, string) {
			_, tok := f.e.invite("owner", f.owner, "viewer", "guest@x.io")
			f.e.clock.add(8 * 24 * time.Hour)
			return "guest", tok
		}, http.StatusGone, "invite_expired"},
		{"another email", func(f fixture) (string, string) {
			_, tok := f.e.invite("owner", f.owner, "viewer", "someone@x.io")
			return "guest", tok
		}, http.StatusForbidden, "invite_email_mismatch"},
		{"the email as a prefix", func(f fixture) (string, string) {
			_, tok := f.e.invite("owner", f.owner, "viewer", "guest@x.io.evil.example")
			return "guest", tok
		}, http.StatusForbidden, "invite_email_mismatch"},
		{"caller without an email", func(f fixture) (string, string) {
			f.e.user("noemail", "", plans.Free)
			_, tok := f.e.invite("owner", f.owner, "viewer", "guest@x.io")
			return "noemail", tok
		}, http.StatusForbidden, "invite_email_mismatch"},
		{"own team", func(f fixture) (string, string) {
			_, tok := f.e.invite("owner", f.owner, "viewer", "")
			return "owner", tok
		}, http.StatusConflict, "invite_own_team"},
		{"already a member", func(f fixture) (string, string) {
			_, tok := f.e.invite("owner", f.owner, "admin", "")
			return "admin", tok
		}, http.StatusConflict, "already_member"},
		{"second invite to the same team", func(f fixture) (string, string) {
			_, tok1 := f.e.invite("owner", f.owner, "viewer", "")
			_, tok2 := f.e.invite("owner", f.owner, "admin", "")
			require.Equal(f.e.t, http.StatusOK, f.e.accept("guest", tok1).Code)
			return "guest", tok2
		}, http.StatusConflict, "already_member"},
		{"owner dropped below pro", func(f fixture) (string, string) {
			_, tok := f.e.invite("owner", f.owner, "viewer", "")
			require.NoError(f.e.t, f.e.repo.SetPlan(bg, f.owner.ID, plans.Solo))
			return "guest", tok
		}, http.StatusPaymentRequired, "plan_required"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			owner := e.user("owner", "o@x.io", plans.Pro)
			e.member(owner, e.user("admin", "admin@x.io", plans.Free), accounts.RoleAdmin)
			guest := e.user("guest", "guest@x.io", plans.Free)
			caller, tok := c.setup(fixture{e: e, owner: owner})
			before := e.count("SELECT count(*) AS n FROM team_members")
			r := e.accept(caller, tok)
			require.Equal(t, c.status, r.Code, r.Body.String())
			if c.code != "" {
				assert.Equal(t, c.code, r.errCode())
				assert.Equal(t, before, e.count("SELECT count(*) AS n FROM team_members"), "no membership")
				if c.code == "plan_required" {
					assert.Equal(t, "pro", r.errField("plan"))
				}
				return
			}
			team := r.json()["team"].(map[string]any)
			assert.Equal(t, owner.ID, team["ownerId"])
			assert.Equal(t, "Name owner", team["ownerName"])
			row, err := e.db.First(bg, store.Q("SELECT role, used_by FROM invites WHERE token_hash = ?", accounts.HashInviteToken(tok)))
			require.NoError(t, err)
			role, _ := row.String("role")
			assert.Equal(t, role, team["role"])
			me, err := e.repo.AccountByIdentity(bg, "idp_"+caller)
			require.NoError(t, err)
			usedBy, _ := row.String("used_by")
			assert.Equal(t, me.ID, usedBy)
			if caller == "guest" {
				assert.Equal(t, guest.ID, usedBy)
			}
			// The caller is a member now, with the invite's role.
			p := e.do(req{method: "GET", path: "/api/me", token: caller}).json()
			assert.Equal(t, []any{map[string]any{"ownerId": owner.ID, "ownerName": "Name owner", "role": role}}, p["teams"])
			g := e.do(req{method: "GET", path: "/api/team?owner=" + owner.ID, token: caller})
			require.Equal(t, http.StatusOK, g.Code, g.Body.String())
			assert.Equal(t, role, g.json()["role"])
			// The link works once.
			again := e.accept(caller, tok)
			assert.Equal(t, http.StatusGone, again.Code)
			assert.Equal(t, "invite_used", again.errCode())
		})
	}
}

// TestParallelAccepts: of parallel accepts of one link exactly one joins.
// A barrier holds every accept after its first read until all have read
// the invite as open, so the claims really race.
func TestParallelAccepts(t *testing.T) {
	var barrier atomic.Pointer[sync.WaitGroup]
	e := newEnv(t, withHook(func(stmts ...store.Stmt) error {
		if wg := barrier.Load(); wg != nil && strings.Contains(stmts[0].SQL, "UPDATE invites SET used_at") {
			wg.Done()
			wg.Wait()
		}
		return nil
	}))
	owner := e.user("owner", "o@x.io", plans.Pro)
	const n = 12
	callers := make([]string, n)
	for i := range callers {
		callers[i] = "guest" + string(rune('a'+i))
		e.user(callers[i], callers[i]+"@x.io", plans.Free)
	}
	for _, who := range [][]string{callers, {callers[0], callers[0], callers[0], callers[0]}} {
		_, tok := e.invite("owner", owner, "developer", "")
		_, err := e.db.Run(bg, store.Q("DELETE FROM team_members"))
		require.NoError(t, err)
		arrived := &sync.WaitGroup{}
		arrived.Add(len(who))
		barrier.Store(arrived)
		codes := make([]int, len(who))
		errs := make([]string, len(who))
		var wg sync.WaitGroup
		for i, c := range who {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := e.accept(c, tok)
				codes[i] = r.Code
				if r.Code != http.StatusOK {
					errs[i] = r.errCode()
				}
			}()
		}
		wg.Wait()
		barrier.Store(nil)
		ok := 0
		for i, c := range codes {
			if c == http.StatusOK {
				ok++
				continue
			}
			assert.Equal(t, http.StatusGone, c)
			assert.Equal(t, "invite_used", errs[i])
		}
		assert.Equal(t, 1, ok, "%d callers: %v", len(who), codes)
		assert.Equal(t, int64(1), e.count("SELECT count(*) AS n FROM team_members WHERE owner_id = ?", owner.ID))
	}
}

func TestWithdrawInvite(t *testing.T) {
	e := newEnv(t)
	owner := e.user("owner", "o@x.io", plans.Pro)
	other := e.user("other", "other@x.io", plans.Pro)
	e.user("guest", "guest@x.io", plans.Free)
	id, tok := e.invite("owner", owner, "viewer", "")
	otherID, _ := e.invite("other", other, "viewer", "")
	usedID, usedTok := e.invite("owner", owner, "viewer", "")
	require.Equal(t, http.StatusOK, e.accept("guest", usedTok).Code)
	oldID, _ := e.invite("owner", owner, "viewer", "")
	_, err := e.db.Run(bg, store.Q("UPDATE invites SET created_at = created_at - ? WHERE id = ?", accounts.InviteValidity.Milliseconds(), oldID))
	require.NoError(t, err)

	cases := []struct {
		name, id string
		status   int
	}{
		{"another team's invite", otherID, http.StatusNotFound},
		{"a used invite", usedID, http.StatusNotFound},
		{"an expired invite", oldID, http.StatusNotFound},
		{"an unknown id", "inv_000", http.StatusNotFound},
		{"SQL in the id", url.PathEscape("' OR 1=1 --"), http.StatusNotFound},
		{"an open invite", id, http.StatusOK},
		{"the same invite again", id, http.StatusNotFound},
	}
	for _, c := range cases {
		r := e.do(req{method: "DELETE", path: "/api/team/invites/" + c.id, token: "owner"})
		assert.Equal(t, c.status, r.Code, "%s: %s", c.name, r.Body.String())
		if c.status == http.StatusOK {
			assert.Equal(t, map[string]any{"ok": true}, r.json())
		} else {
			assert.Equal(t, "not_found", r.errCode(), c.name)
		}
	}
	r := e.accept("guest", tok)
	assert.Equal(t, http.StatusNotFound, r.Code)
	assert.Equal(t, "invite_not_found", r.errCode())
	assert.Equal(t, int64(1), e.count("SELECT count(*) AS n FROM invites WHERE withdrawn_at IS NOT NULL"))
	assert.Equal(t, int64(1), e.count("SELECT count(*) AS n FROM invites WHERE id = ? AND withdrawn_at IS NULL", otherID))
}

// hookDB calls before ahead of every statement or batch; an error from it
// is the statement's error.
type hookDB struct {
	store.DB
	before func(stmts ...store.Stmt) error
}

func (h hookDB) All(ctx context.Context, s store.Stmt) (store.Result, error) {
	if err := h.before(s); err != nil {
		return store.Result{}, err
	}
	return h.DB.All(ctx, s)
}

func (h hookDB) First(ctx context.Context, s store.Stmt) (store.Row, error) {
	if err := h.before(s); err != nil {
		return nil, err
	}
	return h.DB.First(ctx, s)
}

func (h hookDB) Run(ctx context.Context, s store.Stmt) (store.Meta, error) {
	if err := h.before(s); err != nil {
		return store.Meta{}, err
	}
	return h.DB.Run(ctx, s)
}

func (h hookDB) Batch(ctx context.Context, stmts []store.Stmt) ([]store.Result, error) {
	if err := h.before(stmts...); err != nil {
		return nil, err
	}
	return h.DB.Batch(ctx, stmts)
}

func withHook(before func(stmts ...store.Stmt) error) func(Config) Config {
	return func(c Config) Config { c.db = hookDB{DB: c.db, before: before}; return c }
}

// TestInviteTokenSecrecy: the token is answered once, in the url; no row
// holds it and no log line names it (nor an email), even when the
// database fails with an error that quotes it.
func TestInviteTokenSecrecy(t *testing.T) {
	// While fail is set, writes to invites fail with an error that quotes
	// the arguments, as a driver's might.
	fail := &atomic.Bool{}
	e := newEnv(t, withHook(func(stmts ...store.Stmt) error {
		for _, s := range stmts {
			q := strings.TrimSpace(s.SQL)
			if fail.Load() && strings.Contains(q, "invites") && !strings.HasPrefix(q, "SELECT") {
				return fmt.Errorf("disk I/O error in %q with %v", s.SQL, s.Args)
			}
		}
		return nil
	}))
	owner := e.user("owner", "o@x.io", plans.Pro)
	e.user("guest", "guest@x.io", plans.Free)
	e.user("guest2", "guest2@x.io", plans.Free)
	_, tok := e.invite("owner", owner, "viewer", "guest@x.io")
	_, tok2 := e.invite("owner", owner, "viewer", "")

	r := e.do(req{method: "GET", path: "/api/team", token: "owner"})
	require.Equal(t, http.StatusOK, r.Code)
	assert.NotContains(t, r.Body.String(), tok, "the team view never shows a token")
	assert.NotContains(t, r.Body.String(), accounts.HashInviteToken(tok))

	res, err := e.db.All(bg, store.Q("SELECT * FROM invites"))
	require.NoError(t, err)
	require.Len(t, res.Rows, 2)
	for _, row := range res.Rows {
		for col, v := range row {
			assert.NotContains(t, string(v), tok, col)
			assert.NotContains(t, string(v), tok2, col)
		}
	}
	assert.Equal(t, int64(1), e.count("SELECT count(*) AS n FROM invites WHERE token_hash = ?", accounts.HashInviteToken(tok)))
	require.Equal(t, http.StatusOK, e.accept("guest", tok).Code)

	fail.Store(true)
	assert.Equal(t, http.StatusInternalServerError, e.accept("guest2", tok2).Code)
	r = e.do(req{method: "POST", path: "/api/team/invites", token: "owner", body: map[string]any{"role": "viewer", "email": "secret@x.io"}})
	assert.Equal(t, http.StatusInternalServerError, r.Code)
	assert.Equal(t, "internal_error", r.errCode())
	e.mu.Lock()
	defer e.mu.Unlock()
	require.Len(t, e.logs, 2)
	assert.Contains(t, e.logs[0], "accept_invite")
	assert.Contains(t, e.logs[1], "create_invite")
	for _, line := range e.logs {
		for _, secret := range []string{tok, tok2, accounts.HashInviteToken(tok2), "@x.io"} {
			assert.NotContains(t, line, secret)
		}
	}
}
