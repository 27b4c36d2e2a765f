//go:build !js

package accounts

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/store"
)

func join(t *testing.T, db store.DB, owner, member Account, role string) {
	t.Helper()
	_, err := db.Run(bg, store.Q("INSERT INTO team_members (id, owner_id, member_id, role, created_at) VALUES (?, ?, ?, ?, 1)",
		NewID("tm"), owner.ID, member.ID, role))
	require.NoError(t, err)
}

// TestActorChecksInsideWrites: a caller whose role or access changed after
// the route resolved it cannot write with the old role; each write
// explains why.
func TestActorChecksInsideWrites(t *testing.T) {
	r, db, _ := setup(t)
	owner := account(t, r, "owner", "o@x.io", plans.Pro)
	admin := account(t, r, "admin", "a@x.io", plans.Free)
	dev := account(t, r, "dev", "d@x.io", plans.Free)
	join(t, db, owner, admin, RoleAdmin)
	join(t, db, owner, dev, RoleDeveloper)
	asAdmin := Actor{OwnerID: owner.ID, CallerID: admin.ID, Role: RoleAdmin}
	asOwner := Actor{OwnerID: owner.ID, CallerID: owner.ID, Role: RoleOwner}
	inv, _, err := r.CreateInvite(bg, asOwner, RoleViewer, "")
	require.NoError(t, err)

	writes := map[string]func(Actor) error{
		"create invite": func(a Actor) error { _, _, err := r.CreateInvite(bg, a, RoleViewer, ""); return err },
		"withdraw":      func(a Actor) error { return r.WithdrawInvite(bg, a, inv.ID) },
		"set role":      func(a Actor) error { _, err := r.SetMemberRole(bg, a, dev.ID, RoleViewer); return err },
		"remove":        func(a Actor) error { return r.RemoveMember(bg, a, dev.ID) },
	}
	// Demoted to developer after the route saw admin.
	_, err = db.Run(bg, store.Q("UPDATE team_members SET role = 'developer' WHERE member_id = ?", admin.ID))
	require.NoError(t, err)
	for name, w := range writes {
		assert.ErrorIs(t, w(asAdmin), ErrRank, name)
	}
	// Removed.
	_, err = db.Run(bg, store.Q("DELETE FROM team_members WHERE member_id = ?", admin.ID))
	require.NoError(t, err)
	for name, w := range writes {
		assert.ErrorIs(t, w(asAdmin), ErrNotFound, name)
	}
	// The owner's plan lost teams: members lose access, the owner is asked
	// for a plan.
	join(t, db, owner, admin, RoleAdmin)
	require.NoError(t, r.SetPlan(bg, owner.ID, plans.Solo))
	for name, w := range writes {
		assert.ErrorIs(t, w(asAdmin), ErrNotFound, name)
		assert.ErrorIs(t, w(asOwner), ErrTeamsPlan, name)
	}
	assert.Equal(t, int64(1), count(t, db, "SELECT count(*) AS n FROM invites WHERE withdrawn_at IS NULL"), "nothing changed")
	assert.Equal(t, int64(1), count(t, db, "SELECT count(*) AS n FROM team_members WHERE member_id = ? AND role = 'developer'", dev.ID))
}

func TestInviteRolesAndTokens(t *testing.T) {
	r, db, _ := setup(t)
	owner := account(t, r, "owner", "o@x.io", plans.Pro)
	asOwner := Actor{OwnerID: owner.ID, CallerID: owner.ID, Role: RoleOwner}
	_, _, err := r.CreateInvite(bg, asOwner, RoleOwner, "")
	assert.ErrorIs(t, err, ErrRole)
	_, _, err = r.CreateInvite(bg, Actor{OwnerID: owner.ID, CallerID: "acc_x", Role: RoleDeveloper}, RoleAdmin, "")
	assert.ErrorIs(t, err, ErrRank)
	_, err = r.SetMemberRole(bg, asOwner, "acc_x", RoleOwner)
	assert.ErrorIs(t, err, ErrRole)

	inv, tok, err := r.CreateInvite(bg, asOwner, RoleAdmin, "Pat@x.io")
	require.NoError(t, err)
	assert.True(t, ValidInviteToken(tok))
	assert.Len(t, tok, 43)
	assert.Equal(t, inv.CreatedAt+InviteValidity.Milliseconds(), inv.ExpiresAt())
	assert.Equal(t, int64(1), count(t, db, "SELECT count(*) AS n FROM invites WHERE token_hash = ? AND email = 'Pat@x.io'", HashInviteToken(tok)))
	assert.Zero(t, count(t, db, "SELECT count(*) AS n FROM invites WHERE token_hash = ? OR id = ? OR email = ?", tok, tok, tok))
	_, tok2, err := r.CreateInvite(bg, asOwner, RoleAdmin, "")
	require.NoError(t, err)
	assert.NotEqual(t, tok, tok2)

	for _, bad := range []string{"", "short", tok + "A", tok[:42] + "=", tok[:42] + "/", tok[:42] + "+", HashInviteToken(tok)} {
		assert.False(t, ValidInviteToken(bad), bad)
	}
	assert.Regexp(t, `^[0-9a-f]{64}$`, HashInviteToken(tok))
}

func TestSameEmail(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"pat@x.io", "pat@x.io", true},
		{"Pat@X.IO", "pat@x.io", true},
		{" pat@x.io ", "pat@x.io", true},
		{"ÄRGER@x.io", "ärger@x.io", true},
		{"pat@x.io", "pat@x.io.example", false},
		{"pat@x.io", "", false},
		{"", "", false},
	} {
		assert.Equal(t, c.same, SameEmail(c.a, c.b), "%q %q", c.a, c.b)
	}
}

func TestRolesBelow(t *testing.T) {
	assert.Equal(t, "'admin', 'developer', 'viewer'", rolesBelow(RoleOwner))
	assert.Equal(t, "'developer', 'viewer'", rolesBelow(RoleAdmin))
	assert.Equal(t, "'viewer'", rolesBelow(RoleDeveloper))
	assert.Equal(t, "NULL", rolesBelow(RoleViewer))
	assert.Equal(t, "NULL", rolesBelow("root"))
	assert.Equal(t, "'pro', 'scale'", teamPlanList())
	assert.Panics(t, func() { sqlWord("x'y") })
	assert.Panics(t, func() { sqlWord("") })
}
