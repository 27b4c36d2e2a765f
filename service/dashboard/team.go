package dashboard

import (
	"errors"
	"net/http"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/plans"
)

// memberJSON is a team member; id is the member's account id, the :id of
// the member routes. The owner is listed first with role owner.
type memberJSON struct {
	ID       string  `json:"id"`
	Name     string  `json:"name"`
	Email    *string `json:"email"`
	Role     string  `json:"role"`
	JoinedAt int64   `json:"joinedAt"`
}

func memberOut(m accounts.Member) memberJSON {
	return memberJSON{ID: m.AccountID, Name: m.Name, Email: m.Email, Role: m.Role, JoinedAt: m.JoinedAt}
}

// teamRoute authenticates the caller and resolves the team it acts on
// (its own, or ?owner=) with role min or higher; an owner whose plan lacks
// teams gets 402 plan_required (members of such a team get 404 from
// TeamFor: their memberships do not count).
func (d *Dashboard) teamRoute(w http.ResponseWriter, r *http.Request, min string) (accounts.Account, accounts.TeamAccess, bool) {
	a, _, ok := d.Caller(w, r)
	if !ok {
		return accounts.Account{}, accounts.TeamAccess{}, false
	}
	ta, ok := d.TeamFor(w, r, a, min)
	if !ok {
		return accounts.Account{}, accounts.TeamAccess{}, false
	}
	if !ta.Owner.Limits().Teams {
		teamsPlanRequired(w)
		return accounts.Account{}, accounts.TeamAccess{}, false
	}
	return a, ta, true
}

// teamsPlanRequired is 402 plan_required naming the cheapest plan with
// teams.
func teamsPlanRequired(w http.ResponseWriter) {
	p, _ := plans.Cheapest(0, func(l plans.Limits) bool { return l.Teams })
	planRequired(w, p.Name, "Team members need the "+p.Name+" plan or higher on the owner's account.")
}

// teamFail answers the repository's team and invite errors, and 500 for
// any other (logging the event and the error's type).
func (d *Dashboard) teamFail(w http.ResponseWriter, event string, err error) {
	type answer struct {
		status int
		e      Error
	}
	answers := []struct {
		err error
		answer
	}{
		{accounts.ErrNotFound, answer{http.StatusNotFound, errNotFound}},
		{accounts.ErrRank, answer{http.StatusForbidden, errForbiddenRole}},
		{accounts.ErrOwnerImmutable, answer{http.StatusConflict, Error{Code: "owner_immutable",
			Message: "The owner's role cannot change and the owner cannot be removed."}}},
		{accounts.ErrInviteLimit, answer{http.StatusConflict, Error{Code: "invite_limit",
			Message: "The team has too many open invites; withdraw some first."}}},
		{accounts.ErrRole, answer{http.StatusBadRequest, errInviteRole}},
		{accounts.ErrInviteNotFound, answer{http.StatusNotFound, Error{Code: "invite_not_found",
			Message: "This invite link does not exist or was withdrawn."}}},
		{accounts.ErrInviteUsed, answer{http.StatusGone, Error{Code: "invite_used",
			Message: "This invite link was used already."}}},
		{accounts.ErrInviteExpired, answer{http.StatusGone, Error{Code: "invite_expired",
			Message: "This invite link is older than 7 days; ask for a new one."}}},
		{accounts.ErrInviteEmail, answer{http.StatusForbidden, Error{Code: "invite_email_mismatch",
			Message: "This invite is for another email address than the one you signed in with."}}},
		{accounts.ErrInviteOwnTeam, answer{http.StatusConflict, Error{Code: "invite_own_team",
			Message: "This invite is for your own team."}}},
		{accounts.ErrAlreadyMember, answer{http.StatusConflict, Error{Code: "already_member",
			Message: "You are a member of this team already."}}},
	}
	if errors.Is(err, accounts.ErrTeamsPlan) {
		teamsPlanRequired(w)
		return
	}
	for _, a := range answers {
		if errors.Is(err, a.err) {
			Fail(w, a.status, a.e)
			return
		}
	}
	d.internal(w, event, err)
}

// errInviteRole refuses a role no member can hold.
var errInviteRole = Error{Code: "invalid_request", Field: "role",
	Message: "role must be admin, developer or viewer (the owner role cannot be granted)."}

// memberRole checks a role a member may be given.
func memberRole(w http.ResponseWriter, role string) bool {
	if accounts.MemberRole(role) {
		return true
	}
	Fail(w, http.StatusBadRequest, errInviteRole)
	return false
}

// getTeam is GET /api/team: the owner and members for every member; the
// open invites only for admin and owner (they alone manage them, and
// invites can name emails of people not in the team yet).
func (d *Dashboard) getTeam(w http.ResponseWriter, r *http.Request) {
	_, ta, ok := d.teamRoute(w, r, accounts.RoleViewer)
	if !ok {
		return
	}
	ctx := r.Context()
	list, err := d.repo.Members(ctx, ta.Owner.ID)
	if err != nil {
		d.internal(w, "team", err)
		return
	}
	o := ta.Owner
	members := []memberJSON{{ID: o.ID, Name: o.Name, Email: o.Email, Role: accounts.RoleOwner, JoinedAt: o.CreatedAt}}
	for _, m := range list {
		members = append(members, memberOut(m))
	}
	invites := []inviteJSON{}
	if accounts.RoleAtLeast(ta.Role, accounts.RoleAdmin) {
		open, err := d.repo.OpenInvites(ctx, ta.Owner.ID)
		if err != nil {
			d.internal(w, "team", err)
			return
		}
		for _, i := range open {
			invites = append(invites, inviteOut(i))
		}
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"ownerId": o.ID, "role": ta.Role, "members": members, "invites": invites})
}

// patchMember is PATCH /api/team/members/:id {role}.
func (d *Dashboard) patchMember(w http.ResponseWriter, r *http.Request) {
	a, ta, ok := d.teamRoute(w, r, accounts.RoleAdmin)
	if !ok {
		return
	}
	var body struct {
		Role string `json:"role"`
	}
	if !DecodeJSON(w, r, &body) || !memberRole(w, body.Role) {
		return
	}
	m, err := d.repo.SetMemberRole(r.Context(), ta.Actor(a.ID), httpx.Param(r, "id"), body.Role)
	if err != nil {
		d.teamFail(w, "patch_member", err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]memberJSON{"member": memberOut(m)})
}

// removeMember is DELETE /api/team/members/:id: admin and owner remove
// members ranked below them; any member may remove itself (leave).
func (d *Dashboard) removeMember(w http.ResponseWriter, r *http.Request) {
	a, ta, ok := d.teamRoute(w, r, accounts.RoleViewer)
	if !ok {
		return
	}
	target := httpx.Param(r, "id")
	if target != a.ID && !RequireRole(w, ta.Role, accounts.RoleAdmin) {
		return
	}
	if err := d.repo.RemoveMember(r.Context(), ta.Actor(a.ID), target); err != nil {
		d.teamFail(w, "remove_member", err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]bool{"ok": true})
}
