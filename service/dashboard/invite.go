package dashboard

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/httpx"
)

// InvitePath is the dashboard page of an invite link: InvitePath + token.
const InvitePath = "/invite/"

// inviteJSON is an open invite. The token is never part of it: it is in
// the url of the creation answer only.
type inviteJSON struct {
	ID        string  `json:"id"`
	Role      string  `json:"role"`
	Email     *string `json:"email"`
	CreatedAt int64   `json:"createdAt"`
	ExpiresAt int64   `json:"expiresAt"`
	CreatedBy *string `json:"createdBy"`
}

func inviteOut(i accounts.Invite) inviteJSON {
	return inviteJSON{ID: i.ID, Role: i.Role, Email: i.Email, CreatedAt: i.CreatedAt, ExpiresAt: i.ExpiresAt(), CreatedBy: i.CreatedBy}
}

// checkDashboardURL accepts "" (relative links) or an http(s) URL with a
// host and an optional path, without user, query or fragment.
func checkDashboardURL(s string) error {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil ||
		u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return fmt.Errorf("dashboard URL %q: want http(s)://host[/path]", s)
	}
	return nil
}

// inviteURL is the link of an invite token on the dashboard.
func (d *Dashboard) inviteURL(token string) string {
	return strings.TrimRight(d.cfg.dashboardURL, "/") + InvitePath + token
}

// createInvite is POST /api/team/invites {role, email?} → 201 {invite,
// url}. The url holds the token; it is answered here once and never
// stored (only its hash) or logged.
func (d *Dashboard) createInvite(w http.ResponseWriter, r *http.Request) {
	a, ta, ok := d.teamRoute(w, r, accounts.RoleAdmin)
	if !ok {
		return
	}
	var body struct {
		Role  string  `json:"role"`
		Email *string `json:"email"`
	}
	if !DecodeJSON(w, r, &body) || !memberRole(w, body.Role) {
		return
	}
	email := ""
	if body.Email != nil && strings.TrimSpace(*body.Email) != "" {
		if email, ok = validEmail(*body.Email); !ok {
			invalid(w, "email", "email must be a plain email address, or left out for a link anyone can use.")
			return
		}
	}
	inv, token, err := d.repo.CreateInvite(r.Context(), ta.Actor(a.ID), body.Role, email)
	if err != nil {
		d.teamFail(w, "create_invite", err)
		return
	}
	httpx.JSON(w, http.StatusCreated, map[string]any{"invite": inviteOut(inv), "url": d.inviteURL(token)})
}

// withdrawInvite is DELETE /api/team/invites/:id → {ok: true}.
func (d *Dashboard) withdrawInvite(w http.ResponseWriter, r *http.Request) {
	a, ta, ok := d.teamRoute(w, r, accounts.RoleAdmin)
	if !ok {
		return
	}
	if err := d.repo.WithdrawInvite(r.Context(), ta.Actor(a.ID), httpx.Param(r, "id")); err != nil {
		d.teamFail(w, "withdraw_invite", err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// acceptInvite is POST /api/invites/:token/accept → {team: {ownerId,
// ownerName, role}}. The caller's verified email is the account's: the
// account keeps the last email a token sent as verified.
func (d *Dashboard) acceptInvite(w http.ResponseWriter, r *http.Request) {
	a, _, ok := d.Caller(w, r)
	if !ok {
		return
	}
	token := httpx.Param(r, "token")
	if !accounts.ValidInviteToken(token) {
		d.teamFail(w, "accept_invite", accounts.ErrInviteNotFound)
		return
	}
	t, err := d.repo.AcceptInvite(r.Context(), accounts.HashInviteToken(token), a.ID, a.EmailOrEmpty())
	if err != nil {
		d.teamFail(w, "accept_invite", err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]teamJSON{"team": teamJSON(t)})
}
