//go:build !js

package dashboard

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/store"
)

// team is a Pro owner with one member of each role (tokens "owner",
// "admin", "developer", "viewer") and a stranger.
func (e *env) team() map[string]accounts.Account {
	e.t.Helper()
	m := map[string]accounts.Account{accounts.RoleOwner: e.user("owner", "o@x.io", plans.Pro)}
	for _, role := range []string{accounts.RoleAdmin, accounts.RoleDeveloper, accounts.RoleViewer} {
		m[role] = e.user(role, role+"@x.io", plans.Free)
		e.clock.add(time.Second)
		e.member(m[accounts.RoleOwner], m[role], role)
	}
	m["stranger"] = e.user("stranger", "s@x.io", plans.Free)
	return m
}

func TestGetTeam(t *testing.T) {
	e := newEnv(t)
	acc := e.team()
	owner := acc[accounts.RoleOwner]
	second := e.user("admin2", "admin2@x.io", plans.Free)
	e.member(owner, second, accounts.RoleAdmin)
	openID, _ := e.invite("owner", owner, "developer", "new@x.io")
	e.clock.add(time.Second)
	adminInv, _ := e.invite("admin", owner, "admin", "")
	withdrawn, _ := e.invite("owner", owner, "viewer", "")
	require.Equal(t, http.StatusOK, e.do(req{method: "DELETE", path: "/api/team/invites/" + withdrawn, token: "owner"}).Code)
	_, used := e.invite("owner", owner, "viewer", "")
	require.Equal(t, http.StatusOK, e.accept("stranger", used).Code)

	r := e.do(req{method: "GET", path: "/api/team", token: "owner"})
	require.Equal(t, http.StatusOK, r.Code, r.Body.String())
	m := r.json()
	assert.Equal(t, owner.ID, m["ownerId"])
	assert.Equal(t, "owner", m["role"])
	var got []string
	for _, x := range m["members"].([]any) {
		mem := x.(map[string]any)
		got = append(got, mem["role"].(string)+" "+mem["name"].(string))
	}
	assert.Equal(t, []string{"owner Name owner", "admin Name admin", "admin Name admin2", "developer Name developer",
		"viewer Name viewer", "viewer Name stranger"}, got, "owner, then by rank, oldest first")
	first := m["members"].([]any)[0].(map[string]any)
	assert.Equal(t, map[string]any{"id": owner.ID, "name": "Name owner", "email": "o@x.io", "role": "owner",
		"joinedAt": float64(owner.CreatedAt)}, first)
	dev := m["members"].([]any)[3].(map[string]any)
	assert.Equal(t, acc[accounts.RoleDeveloper].ID, dev["id"], "a member's id is its account id")
	assert.Equal(t, "developer@x.io", dev["email"])
	invites := m["invites"].([]any)
	require.Len(t, invites, 2, "open invites only")
	assert.Equal(t, adminInv, invites[0].(map[string]any)["id"], "newest first")
	assert.Equal(t, acc[accounts.RoleAdmin].ID, invites[0].(map[string]any)["createdBy"])
	assert.Equal(t, openID, invites[1].(map[string]any)["id"])
	assert.Equal(t, "new@x.io", invites[1].(map[string]any)["email"])

	for who, wantInvites := range map[string]int{"admin": 2, "developer": 0, "viewer": 0} {
		r := e.do(req{method: "GET", path: "/api/team?owner=" + owner.ID, token: who})
		require.Equal(t, http.StatusOK, r.Code, r.Body.String())
		m := r.json()
		assert.Equal(t, who, m["role"])
		assert.Equal(t, owner.ID, m["ownerId"])
		assert.Len(t, m["members"], 6)
		assert.Len(t, m["invites"], wantInvites, "%s sees invites only from admin up", who)
	}

	// Invites expire out of the list.
	e.clock.add(accounts.InviteValidity)
	r = e.do(req{method: "GET", path: "/api/team", token: "owner"})
	assert.Equal(t, []any{}, r.json()["invites"])

	// A Pro account without members is a team of one.
	e.user("solo", "solo@x.io", plans.Scale)
	r = e.do(req{method: "GET", path: "/api/team", token: "solo"})
	require.Equal(t, http.StatusOK, r.Code)
	assert.Len(t, r.json()["members"], 1)
	assert.Equal(t, []any{}, r.json()["invites"])
}

// roleRoute is a route called as a caller ("owner", a member role, or
// "stranger") that needs role min.
type roleRoute struct {
	name string
	min  string
	call func(token string) resp
}

// roleMatrix calls every route as every caller: strangers get 404
// not_found, roles from min up succeed, lower ones get 403 forbidden_role.
func roleMatrix(t *testing.T, routes []roleRoute) {
	for _, rt := range routes {
		for _, who := range []string{accounts.RoleOwner, accounts.RoleAdmin, accounts.RoleDeveloper, accounts.RoleViewer, "stranger"} {
			t.Run(rt.name+" as "+who, func(t *testing.T) {
				r := rt.call(who)
				switch {
				case who == "stranger":
					assert.Equal(t, http.StatusNotFound, r.Code, r.Body.String())
					assert.Equal(t, "not_found", r.errCode())
				case accounts.RoleAtLeast(who, rt.min):
					assert.Less(t, r.Code, 300, r.Body.String())
				default:
					assert.Equal(t, http.StatusForbidden, r.Code, r.Body.String())
					assert.Equal(t, "forbidden_role", r.errCode())
				}
			})
		}
	}
}

// teamRoutes are the team routes with the role they need, each acting on
// the owner's team through ?owner= on a fresh target where it needs one.
func teamRoutes(e *env, owner accounts.Account) []roleRoute {
	q := "?owner=" + owner.ID
	target := func() string {
		m := e.user("t"+accounts.NewID("x"), "", plans.Free)
		e.member(owner, m, accounts.RoleViewer)
		return m.ID
	}
	return []roleRoute{
		{"GET team", accounts.RoleViewer, func(tok string) resp {
			return e.do(req{method: "GET", path: "/api/team" + q, token: tok})
		}},
		{"POST invite", accounts.RoleAdmin, func(tok string) resp {
			return e.do(req{method: "POST", path: "/api/team/invites" + q, token: tok, body: map[string]any{"role": "viewer"}})
		}},
		{"DELETE invite", accounts.RoleAdmin, func(tok string) resp {
			// Stored directly: the API refuses invites while the plan lacks teams.
			id := accounts.NewID("inv")
			_, err := e.db.Run(bg, store.Q(`INSERT INTO invites (id, owner_id, token_hash, role, created_at)
				VALUES (?, ?, ?, 'viewer', ?)`, id, owner.ID, accounts.HashInviteToken(id), e.clock.now().UnixMilli()))
			require.NoError(e.t, err)
			return e.do(req{method: "DELETE", path: "/api/team/invites/" + id + q, token: tok})
		}},
		{"PATCH member", accounts.RoleAdmin, func(tok string) resp {
			return e.do(req{method: "PATCH", path: "/api/team/members/" + target() + q, token: tok, body: map[string]any{"role": "developer"}})
		}},
		{"DELETE member", accounts.RoleAdmin, func(tok string) resp {
			return e.do(req{method: "DELETE", path: "/api/team/members/" + target() + q, token: tok})
		}},
	}
}

// TestTeamRoleMatrix runs every role against every team route, then takes
// Teams away from the owner's plan: memberships stop counting (404) and
// the owner is asked for Pro (402), until the plan includes teams again.
func TestTeamRoleMatrix(t *testing.T) {
	e := newEnv(t)
	acc := e.team()
	owner := acc[accounts.RoleOwner]
	routes := teamRoutes(e, owner)
	roleMatrix(t, routes)

	for _, plan := range []string{plans.Solo, plans.Free} {
		require.NoError(t, e.repo.SetPlan(bg, owner.ID, plan))
		for _, rt := range routes {
			for _, who := range []string{accounts.RoleAdmin, accounts.RoleDeveloper, accounts.RoleViewer} {
				r := rt.call(who)
				assert.Equal(t, http.StatusNotFound, r.Code, "%s as %s on %s", rt.name, who, plan)
			}
			r := rt.call(accounts.RoleOwner)
			assert.Equal(t, http.StatusPaymentRequired, r.Code, "%s as owner on %s", rt.name, plan)
			assert.Equal(t, "plan_required", r.errCode())
			assert.Equal(t, "pro", r.errField("plan"))
		}
		r := e.do(req{method: "GET", path: "/api/me", token: accounts.RoleAdmin})
		assert.Equal(t, []any{}, r.json()["teams"])
	}

	// Back on a plan with teams, the memberships count again.
	require.NoError(t, e.repo.SetPlan(bg, owner.ID, plans.Scale))
	for _, rt := range routes {
		assert.Less(t, rt.call(accounts.RoleAdmin).Code, 300, rt.name)
	}
}

// TestOwnerParam: ?owner= picks the team; without it a route acts on the
// caller's own account.
func TestOwnerParam(t *testing.T) {
	e := newEnv(t)
	acc := e.team()
	owner := acc[accounts.RoleOwner]
	admin := acc[accounts.RoleAdmin]

	// The admin's own (Free) account has no team.
	r := e.do(req{method: "GET", path: "/api/team", token: "admin"})
	assert.Equal(t, http.StatusPaymentRequired, r.Code)
	r = e.do(req{method: "GET", path: "/api/team?owner=" + admin.ID, token: "admin"})
	assert.Equal(t, http.StatusPaymentRequired, r.Code, "?owner= of oneself is the own account")

	// On the owner's team the admin invites; the invite belongs there.
	id, _ := e.invite("admin", owner, "developer", "")
	assert.Equal(t, int64(1), e.count("SELECT count(*) AS n FROM invites WHERE id = ? AND owner_id = ? AND created_by = ?", id, owner.ID, admin.ID))

	// A team the caller has no membership in, an unknown or odd owner.
	other := e.user("other", "other@x.io", plans.Pro)
	otherInv, _ := e.invite("other", other, "viewer", "")
	for _, o := range []string{other.ID, "acc_unknown", url.QueryEscape("' OR 1=1 --"), url.QueryEscape(owner.ID + "'")} {
		for _, q := range []req{
			{method: "GET", path: "/api/team?owner=" + o},
			{method: "POST", path: "/api/team/invites?owner=" + o, body: map[string]any{"role": "viewer"}},
			{method: "DELETE", path: "/api/team/invites/" + otherInv + "?owner=" + o},
			{method: "PATCH", path: "/api/team/members/" + acc[accounts.RoleViewer].ID + "?owner=" + o, body: map[string]any{"role": "admin"}},
			{method: "DELETE", path: "/api/team/members/" + acc[accounts.RoleViewer].ID + "?owner=" + o},
		} {
			q.token = "admin"
			r := e.do(q)
			assert.Equal(t, http.StatusNotFound, r.Code, "%s %s", q.method, q.path)
			assert.Equal(t, "not_found", r.errCode())
		}
	}
	// A member id or invite id of another team through this team: 404.
	r = e.do(req{method: "DELETE", path: "/api/team/invites/" + otherInv + "?owner=" + owner.ID, token: "admin"})
	assert.Equal(t, http.StatusNotFound, r.Code)
	e.member(other, e.user("otherdev", "od@x.io", plans.Free), accounts.RoleDeveloper)
	od, err := e.repo.AccountByIdentity(bg, "idp_otherdev")
	require.NoError(t, err)
	r = e.do(req{method: "DELETE", path: "/api/team/members/" + od.ID + "?owner=" + owner.ID, token: "admin"})
	assert.Equal(t, http.StatusNotFound, r.Code)
	assert.Equal(t, int64(1), e.count("SELECT count(*) AS n FROM team_members WHERE member_id = ?", od.ID))
}

// TestMemberRankRules: who may change or remove whom (see the package
// doc, Teams).
func TestMemberRankRules(t *testing.T) {
	cases := []struct {
		name, caller, method, target string // target: a role of the team, "self", "owner", "stranger", "unknown"
		role                         string // PATCH body
		status                       int
		code                         string
		after                        string // the target's role afterwards ("" gone)
	}{
		{"owner demotes an admin", "owner", "PATCH", "admin", "viewer", 200, "", "viewer"},
		{"owner promotes a viewer to admin", "owner", "PATCH", "viewer", "admin", 200, "", "admin"},
		{"owner sets the same role", "owner", "PATCH", "developer", "developer", 200, "", "developer"},
		{"admin demotes a developer", "admin", "PATCH", "developer", "viewer", 200, "", "viewer"},
		{"admin promotes a viewer to admin", "admin", "PATCH", "viewer", "admin", 200, "", "admin"},
		{"admin changes another admin", "admin", "PATCH", "admin2", "viewer", 403, "forbidden_role", "admin"},
		{"admin changes itself", "admin", "PATCH", "self", "viewer", 403, "forbidden_role", "admin"},
		{"admin changes the owner", "admin", "PATCH", "owner", "viewer", 409, "owner_immutable", "owner"},
		{"owner changes itself", "owner", "PATCH", "owner", "admin", 409, "owner_immutable", "owner"},
		{"anyone raises to owner", "owner", "PATCH", "admin", "owner", 400, "invalid_request", "admin"},
		{"admin raises to owner", "admin", "PATCH", "developer", "owner", 400, "invalid_request", "developer"},
		{"unknown role", "owner", "PATCH", "developer", "root", 400, "invalid_request", "developer"},
		{"developer changes a viewer", "developer", "PATCH", "viewer", "developer", 403, "forbidden_role", "viewer"},
		{"someone outside the team", "owner", "PATCH", "stranger", "viewer", 404, "not_found", ""},
		{"an unknown id", "owner", "PATCH", "unknown", "viewer", 404, "not_found", ""},
		{"owner removes an admin", "owner", "DELETE", "admin", "", 200, "", ""},
		{"admin removes a developer", "admin", "DELETE", "developer", "", 200, "", ""},
		{"admin removes a viewer", "admin", "DELETE", "viewer", "", 200, "", ""},
		{"admin removes another admin", "admin", "DELETE", "admin2", "", 403, "forbidden_role", "admin"},
		{"admin removes the owner", "admin", "DELETE", "owner", "", 409, "owner_immutable", "owner"},
		{"owner leaves its own team", "owner", "DELETE", "owner", "", 409, "owner_immutable", "owner"},
		{"viewer removes another member", "viewer", "DELETE", "developer", "", 403, "forbidden_role", "developer"},
		{"viewer removes the owner", "viewer", "DELETE", "owner", "", 403, "forbidden_role", "owner"},
		{"viewer leaves", "viewer", "DELETE", "self", "", 200, "", ""},
		{"developer leaves", "developer", "DELETE", "self", "", 200, "", ""},
		{"admin leaves", "admin", "DELETE", "self", "", 200, "", ""},
		{"remove someone outside the team", "owner", "DELETE", "stranger", "", 404, "not_found", ""},
		{"remove an unknown id", "admin", "DELETE", "unknown", "", 404, "not_found", ""},
		{"remove with SQL in the id", "owner", "DELETE", "' OR 1=1 --", "", 404, "not_found", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			acc := e.team()
			owner := acc[accounts.RoleOwner]
			acc["admin2"] = e.user("admin2", "admin2@x.io", plans.Free)
			e.member(owner, acc["admin2"], accounts.RoleAdmin)
			target := c.target
			switch c.target {
			case "self":
				target = acc[c.caller].ID
			case "unknown":
				target = accounts.NewID("acc")
			default:
				if a, ok := acc[c.target]; ok {
					target = a.ID
				}
			}
			q := req{method: c.method, path: "/api/team/members/" + url.PathEscape(target) + "?owner=" + owner.ID, token: c.caller}
			if c.method == "PATCH" {
				q.body = map[string]any{"role": c.role}
			}
			r := e.do(q)
			require.Equal(t, c.status, r.Code, r.Body.String())
			if c.code != "" {
				assert.Equal(t, c.code, r.errCode())
				if c.code == "invalid_request" {
					assert.Equal(t, "role", r.errField("field"))
				}
			} else if c.method == "PATCH" {
				assert.Equal(t, map[string]any{"id": target, "name": "Name " + c.target, "email": c.target + "@x.io",
					"role": c.role, "joinedAt": r.json()["member"].(map[string]any)["joinedAt"]}, r.json()["member"])
			} else {
				assert.Equal(t, map[string]any{"ok": true}, r.json())
			}
			if strings.HasPrefix(target, "acc_") && c.target != "unknown" && c.target != "stranger" {
				got := "owner"
				if target != owner.ID {
					row, err := e.repo.TeamRole(bg, owner.ID, target)
					got = row.Role
					if err != nil {
						got = ""
					}
				}
				assert.Equal(t, c.after, got)
			}
		})
	}
}

// TestTeamBadBodies: the JSON rules of every team route with a body.
func TestTeamBadBodies(t *testing.T) {
	e := newEnv(t)
	acc := e.team()
	routes := []route{
		{"POST", "/api/team/invites"},
		{"PATCH", "/api/team/members/" + acc[accounts.RoleViewer].ID},
	}
	cases := append(jsonRuleCases("role", "viewer"),
		bodyCase{"role of the wrong type", `{"role": ["admin"]}`, "application/json", http.StatusBadRequest, "invalid_request"},
		bodyCase{"SQL as the role", `{"role": "viewer' OR '1'='1"}`, "application/json", http.StatusBadRequest, "invalid_request"},
		bodyCase{"role with spaces", `{"role": " viewer "}`, "application/json", http.StatusBadRequest, "invalid_request"},
		bodyCase{"form post", `role=viewer`, "application/x-www-form-urlencoded", http.StatusUnsupportedMediaType, "unsupported_media_type"},
	)
	refuseBodies(t, e, "owner", routes, cases, nil)
	assert.Zero(t, e.count("SELECT count(*) AS n FROM invites"), "nothing changed")
	assert.Equal(t, int64(1), e.count("SELECT count(*) AS n FROM team_members WHERE role = 'viewer'"))

	// Wrong methods answer 405 in the dashboard's shape.
	for _, q := range []req{
		{method: "POST", path: "/api/team"},
		{method: "GET", path: "/api/team/invites"},
		{method: "PATCH", path: "/api/team/invites/inv_1"},
		{method: "GET", path: "/api/team/members/acc_1"},
		{method: "GET", path: "/api/invites/x/accept"},
	} {
		q.token = "owner"
		r := e.do(q)
		assert.Equal(t, http.StatusMethodNotAllowed, r.Code, q.path)
		assert.Equal(t, "method_not_allowed", r.errCode())
	}
}
