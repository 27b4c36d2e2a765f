package accounts

import (
	"context"

	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/store"
)

// Roles, highest first (spec 2, Roles). Only admin, developer and viewer
// are stored in team_members; owner is the account itself.
const (
	RoleOwner     = "owner"
	RoleAdmin     = "admin"
	RoleDeveloper = "developer"
	RoleViewer    = "viewer"
)

// RoleRank orders roles: owner 4 … viewer 1; anything else 0.
func RoleRank(role string) int {
	switch role {
	case RoleOwner:
		return 4
	case RoleAdmin:
		return 3
	case RoleDeveloper:
		return 2
	case RoleViewer:
		return 1
	}
	return 0
}

// RoleAtLeast reports whether role is min or higher.
func RoleAtLeast(role, min string) bool { return RoleRank(role) >= RoleRank(min) && RoleRank(role) > 0 }

// MemberRole reports whether a role may be held by a team member (the
// owner role is never granted).
func MemberRole(role string) bool {
	return role == RoleAdmin || role == RoleDeveloper || role == RoleViewer
}

// teamPlans lists the plans whose memberships count, from the plan table.
func teamPlans() []any {
	var out []any
	for _, l := range plans.All() {
		if l.Teams {
			out = append(out, l.Name)
		}
	}
	return out
}

// placeholders returns "?, ?, …" for n arguments.
func placeholders(n int) string {
	s := make([]byte, 0, 3*n)
	for i := range n {
		if i > 0 {
			s = append(s, ", "...)
		}
		s = append(s, '?')
	}
	return string(s)
}

// Team is a team the caller belongs to.
type Team struct {
	OwnerID   string `json:"owner_id"`
	OwnerName string `json:"owner_name"`
	Role      string `json:"role"`
}

// Teams lists the teams an account is a member of whose owner's plan
// includes teams (memberships of other owners do not count now).
func (r *Repo) Teams(ctx context.Context, accountID string) ([]Team, error) {
	tp := teamPlans()
	res, err := r.db.All(ctx, store.Q(`SELECT m.owner_id, `+ownerName("o")+` AS owner_name, m.role
		FROM team_members m JOIN accounts o ON o.id = m.owner_id
		WHERE m.member_id = ? AND o.plan IN (`+placeholders(len(tp))+`)
		ORDER BY owner_name, m.owner_id`, append([]any{accountID}, tp...)...))
	if err != nil {
		return nil, err
	}
	return store.DecodeAll[Team](res.Rows)
}

// ownerName is the SQL for an owner's display name: the name, else the
// email, else "".
func ownerName(alias string) string {
	return "coalesce(nullif(" + alias + ".name, ''), " + alias + ".email, '')"
}

// TeamAccess is what a caller may do on an owner's account.
type TeamAccess struct {
	Owner Account
	Role  string // owner for the account itself
}

// TeamRole returns the caller's role on ownerID's account: owner for the
// caller's own account, the membership's role while the owner's plan
// includes teams, else ErrNotFound (no access looks like no account).
func (r *Repo) TeamRole(ctx context.Context, ownerID, callerID string) (TeamAccess, error) {
	owner, err := r.Account(ctx, ownerID)
	if err != nil {
		return TeamAccess{}, err
	}
	if ownerID == callerID {
		return TeamAccess{Owner: owner, Role: RoleOwner}, nil
	}
	if !owner.Limits().Teams {
		return TeamAccess{}, ErrNotFound
	}
	row, err := r.db.First(ctx, store.Q("SELECT role FROM team_members WHERE owner_id = ? AND member_id = ?", ownerID, callerID))
	if err != nil {
		return TeamAccess{}, err
	}
	role, err := row.String("role")
	if err != nil {
		return TeamAccess{}, err
	}
	if !MemberRole(role) {
		return TeamAccess{}, ErrNotFound
	}
	return TeamAccess{Owner: owner, Role: role}, nil
}
