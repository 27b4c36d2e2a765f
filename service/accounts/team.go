package accounts

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/emojisearch/emojisearch/service/store"
)

// Team management (spec 2, Roles and the Invite rows of States and
// transitions). Every write names the conditions it depends on in its own
// WHERE: the acting caller still holds the role the route resolved on a
// team whose plan includes teams, the target member ranks below the caller,
// the invite is still open. A write that changes nothing is then explained
// by reading the rows again, so parallel requests cannot step past a check.

// InviteValidity is how long an invite link works (spec 2, Limits).
const InviteValidity = 7 * 24 * time.Hour

// MaxOpenInvites is how many open invites a team may have at once (ours;
// the spec names no limit). The count is part of the insert.
const MaxOpenInvites = 50

// inviteTokenBytes is the randomness of an invite token: 256 bits, written
// as 43 base64url characters.
const inviteTokenBytes = 32

// Errors of team and invite changes.
var (
	// ErrInviteNotFound: no invite has the token, or it was withdrawn.
	ErrInviteNotFound = errors.New("accounts: invite not found")
	// ErrInviteUsed: the invite was accepted already.
	ErrInviteUsed = errors.New("accounts: invite used")
	// ErrInviteExpired: the invite is InviteValidity old or older.
	ErrInviteExpired = errors.New("accounts: invite expired")
	// ErrInviteEmail: the invite names another email than the caller's
	// verified one.
	ErrInviteEmail = errors.New("accounts: invite names another email")
	// ErrInviteOwnTeam: the owner tried to accept an invite to their own
	// team.
	ErrInviteOwnTeam = errors.New("accounts: invite to the caller's own team")
	// ErrAlreadyMember: the caller is a member of the team already.
	ErrAlreadyMember = errors.New("accounts: already a member")
	// ErrTeamsPlan: the owner's plan does not include teams.
	ErrTeamsPlan = errors.New("accounts: the owner's plan does not include teams")
	// ErrInviteLimit: the team has MaxOpenInvites open invites.
	ErrInviteLimit = errors.New("accounts: too many open invites")
	// ErrOwnerImmutable: the change targets the owner, whose role is fixed.
	ErrOwnerImmutable = errors.New("accounts: the owner cannot change")
	// ErrRank: the caller's role does not allow the change (the target
	// ranks as high as the caller, or the new role is above the caller's).
	ErrRank = errors.New("accounts: role too low for this change")
	// ErrRole: the role cannot be held by a team member.
	ErrRole = errors.New("accounts: not a member role")
)

// Actor is a caller acting on a team with the role the route resolved
// (TeamRole): Role is owner when CallerID is OwnerID.
type Actor struct {
	OwnerID  string
	CallerID string
	Role     string
}

// Actor is the caller acting on this access's team.
func (t TeamAccess) Actor(callerID string) Actor {
	return Actor{OwnerID: t.Owner.ID, CallerID: callerID, Role: t.Role}
}

// args binds the actor as ?1 owner, ?2 caller, ?3 role, then more from ?4.
func (a Actor) args(more ...any) []any {
	return append([]any{a.OwnerID, a.CallerID, a.Role}, more...)
}

// actorHolds is the SQL condition that the actor (?1, ?2, ?3) still acts
// with its role on a team whose owner's plan includes teams.
func actorHolds() string {
	return `EXISTS (SELECT 1 FROM accounts o WHERE o.id = ?1 AND o.plan IN (` + teamPlanList() + `))
		AND ((?3 = 'owner' AND ?2 = ?1) OR EXISTS (SELECT 1 FROM team_members c
			WHERE c.owner_id = ?1 AND c.member_id = ?2 AND c.role = ?3))`
}

// teamPlanList is the plans that include teams as SQL string literals.
// Plan names are constants of service/plans; a name that is not plain
// lower-case letters would be a programming error.
func teamPlanList() string {
	var quoted []string
	for _, p := range teamPlans() {
		quoted = append(quoted, sqlWord(p.(string)))
	}
	return strings.Join(quoted, ", ")
}

// rolesBelow is the member roles ranked below role as SQL string literals
// ("NULL", which matches nothing, when there are none).
func rolesBelow(role string) string {
	var quoted []string
	for _, r := range []string{RoleAdmin, RoleDeveloper, RoleViewer} {
		if RoleRank(r) < RoleRank(role) {
			quoted = append(quoted, sqlWord(r))
		}
	}
	if len(quoted) == 0 {
		return "NULL"
	}
	return strings.Join(quoted, ", ")
}

// sqlWord quotes a constant of lower-case letters as a SQL literal.
func sqlWord(s string) string {
	if s == "" || strings.Trim(s, "abcdefghijklmnopqrstuvwxyz") != "" {
		panic("accounts: not a plain word: " + s)
	}
	return "'" + s + "'"
}

// Member is a team membership with the member's profile.
type Member struct {
	AccountID string  `json:"member_id"`
	Name      string  `json:"name"`
	Email     *string `json:"email"`
	Role      string  `json:"role"`
	JoinedAt  int64   `json:"created_at"`
}

const memberSelect = `SELECT m.member_id, a.name, a.email, m.role, m.created_at
	FROM team_members m JOIN accounts a ON a.id = m.member_id`

// Members lists a team's members (the owner not included): admins, then
// developers, then viewers, each oldest membership first.
func (r *Repo) Members(ctx context.Context, ownerID string) ([]Member, error) {
	res, err := r.db.All(ctx, store.Q(memberSelect+` WHERE m.owner_id = ?
		ORDER BY CASE m.role WHEN 'admin' THEN 0 WHEN 'developer' THEN 1 ELSE 2 END, m.created_at, m.rowid`, ownerID))
	if err != nil {
		return nil, err
	}
	return store.DecodeAll[Member](res.Rows)
}

// Invite is an invite row without its token hash.
type Invite struct {
	ID          string  `json:"id"`
	OwnerID     string  `json:"owner_id"`
	CreatedBy   *string `json:"created_by"`
	Role        string  `json:"role"`
	Email       *string `json:"email"`
	CreatedAt   int64   `json:"created_at"`
	UsedAt      *int64  `json:"used_at"`
	UsedBy      *string `json:"used_by"`
	WithdrawnAt *int64  `json:"withdrawn_at"`
}

// ExpiresAt is when the invite stops working (epoch ms).
func (i Invite) ExpiresAt() int64 { return i.CreatedAt + InviteValidity.Milliseconds() }

const inviteCols = "id, owner_id, created_by, role, email, created_at, used_at, used_by, withdrawn_at"

// openInvite is the SQL condition of an open invite (?N is the cutoff:
// created after it).
func openInvite(cutoff string) string {
	return "used_at IS NULL AND withdrawn_at IS NULL AND created_at > " + cutoff
}

// cutoff is the creation time an invite must be younger than to work at
// now.
func cutoff(now int64) int64 { return now - InviteValidity.Milliseconds() }

// OpenInvites lists a team's open invites (not used, withdrawn or
// expired), newest first.
func (r *Repo) OpenInvites(ctx context.Context, ownerID string) ([]Invite, error) {
	res, err := r.db.All(ctx, store.Q("SELECT "+inviteCols+" FROM invites WHERE owner_id = ?1 AND "+openInvite("?2")+
		" ORDER BY created_at DESC, rowid DESC", ownerID, cutoff(r.nowMs())))
	if err != nil {
		return nil, err
	}
	return store.DecodeAll[Invite](res.Rows)
}

// HashInviteToken is the stored form of an invite token: SHA-256, hex.
func HashInviteToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// ValidInviteToken reports whether s has the shape of an invite token, so
// a malformed one never reaches the database.
func ValidInviteToken(s string) bool {
	if len(s) != base64.RawURLEncoding.EncodedLen(inviteTokenBytes) {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(s)
	return err == nil
}

func newInviteToken() string {
	var b [inviteTokenBytes]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("accounts: crypto/rand failed: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// CreateInvite stores an open invite to the actor's team for role, bound
// to email unless it is "", and returns it with its token. Only the
// token's hash is stored; the token is returned here, once. A role above
// the actor's is ErrRank; MaxOpenInvites open invites are ErrInviteLimit.
func (r *Repo) CreateInvite(ctx context.Context, a Actor, role, email string) (Invite, string, error) {
	if !MemberRole(role) {
		return Invite{}, "", ErrRole
	}
	if RoleRank(role) > RoleRank(a.Role) {
		return Invite{}, "", ErrRank
	}
	token := newInviteToken()
	now := r.nowMs()
	creator := a.CallerID
	inv := Invite{ID: NewID("inv"), OwnerID: a.OwnerID, CreatedBy: &creator, Role: role, CreatedAt: now}
	if email != "" {
		inv.Email = &email
	}
	m, err := r.db.Run(ctx, store.Q(`INSERT INTO invites (id, owner_id, created_by, token_hash, role, email, created_at)
		SELECT ?4, ?1, ?2, ?5, ?6, ?7, ?8 WHERE `+actorHolds()+`
			AND (SELECT count(*) FROM invites WHERE owner_id = ?1 AND `+openInvite("?9")+`) < ?10`,
		a.args(inv.ID, HashInviteToken(token), role, nullable(email), now, cutoff(now), MaxOpenInvites)...))
	if err != nil {
		return Invite{}, "", err
	}
	if m.Changes == 0 {
		if err := r.actorError(ctx, a); err != nil {
			return Invite{}, "", err
		}
		return Invite{}, "", ErrInviteLimit
	}
	return inv, token, nil
}

// WithdrawInvite withdraws an open invite of the actor's team; its link
// then answers ErrInviteNotFound. An invite that is not open or not of this
// team is ErrNotFound.
func (r *Repo) WithdrawInvite(ctx context.Context, a Actor, inviteID string) error {
	now := r.nowMs()
	m, err := r.db.Run(ctx, store.Q(`UPDATE invites SET withdrawn_at = ?5
		WHERE id = ?4 AND owner_id = ?1 AND `+openInvite("?6")+` AND `+actorHolds(),
		a.args(inviteID, now, cutoff(now))...))
	if err != nil {
		return err
	}
	if m.Changes == 0 {
		if err := r.actorError(ctx, a); err != nil {
			return err
		}
		return ErrNotFound
	}
	return nil
}

// SetMemberRole changes a member's role. The owner is ErrOwnerImmutable;
// the actor may change only members ranked below it, to a role up to its
// own (ErrRank); a missing member is ErrNotFound. Setting the role a
// member has already is no error.
func (r *Repo) SetMemberRole(ctx context.Context, a Actor, memberID, role string) (Member, error) {
	if memberID == a.OwnerID {
		return Member{}, ErrOwnerImmutable
	}
	if !MemberRole(role) {
		return Member{}, ErrRole
	}
	if RoleRank(role) > RoleRank(a.Role) {
		return Member{}, ErrRank
	}
	res, err := r.db.Batch(ctx, []store.Stmt{
		store.Q(`UPDATE team_members SET role = ?5
			WHERE owner_id = ?1 AND member_id = ?4 AND role IN (`+rolesBelow(a.Role)+`) AND `+actorHolds(),
			a.args(memberID, role)...),
		store.Q(memberSelect+" WHERE m.owner_id = ? AND m.member_id = ?", a.OwnerID, memberID),
	})
	if err != nil {
		return Member{}, err
	}
	if res[0].Meta.Changes == 0 {
		return Member{}, r.memberError(ctx, a, len(res[1].Rows) > 0)
	}
	var m Member
	return m, store.Decode(res[1].Rows[0], &m)
}

// RemoveMember removes a member from the actor's team. A member may always
// remove itself (leave) while the membership counts; others need a rank
// above the member's (ErrRank). The owner is ErrOwnerImmutable; a missing
// member is ErrNotFound.
func (r *Repo) RemoveMember(ctx context.Context, a Actor, memberID string) error {
	if memberID == a.OwnerID {
		return ErrOwnerImmutable
	}
	if memberID == a.CallerID {
		m, err := r.db.Run(ctx, store.Q(`DELETE FROM team_members WHERE owner_id = ?1 AND member_id = ?2
			AND EXISTS (SELECT 1 FROM accounts o WHERE o.id = ?1 AND o.plan IN (`+teamPlanList()+`))`, a.OwnerID, a.CallerID))
		if err == nil && m.Changes == 0 {
			err = ErrNotFound
		}
		return err
	}
	res, err := r.db.Batch(ctx, []store.Stmt{
		store.Q(`DELETE FROM team_members
			WHERE owner_id = ?1 AND member_id = ?4 AND role IN (`+rolesBelow(a.Role)+`) AND `+actorHolds(),
			a.args(memberID)...),
		store.Q("SELECT 1 AS hit FROM team_members WHERE owner_id = ? AND member_id = ?", a.OwnerID, memberID),
	})
	if err != nil {
		return err
	}
	if res[0].Meta.Changes == 0 {
		return r.memberError(ctx, a, len(res[1].Rows) > 0)
	}
	return nil
}

// memberError explains a member change that changed nothing: the actor
// lost its access or role, else the member is missing (ErrNotFound) or
// ranks too high (ErrRank).
func (r *Repo) memberError(ctx context.Context, a Actor, memberExists bool) error {
	if err := r.actorError(ctx, a); err != nil {
		return err
	}
	if !memberExists {
		return ErrNotFound
	}
	return ErrRank
}

// actorError reports why the actor no longer acts with its role: no access
// (ErrNotFound), the owner's plan lost teams (ErrTeamsPlan), another role
// (ErrRank); nil while it still does.
func (r *Repo) actorError(ctx context.Context, a Actor) error {
	ta, err := r.TeamRole(ctx, a.OwnerID, a.CallerID)
	switch {
	case err != nil:
		return err
	case !ta.Owner.Limits().Teams:
		return ErrTeamsPlan
	case ta.Role != a.Role:
		return ErrRank
	}
	return nil
}

// inviteState is an invite as its acceptance sees it.
type inviteState struct {
	Invite
	OwnerName string `json:"owner_name"`
	OwnerPlan string `json:"owner_plan"`
	Member    int64  `json:"member"` // 1 when the caller is a member already
}

func (r *Repo) inviteState(ctx context.Context, tokenHash, callerID string) (inviteState, error) {
	row, err := r.db.First(ctx, store.Q(`SELECT i.id, i.owner_id, i.created_by, i.role, i.email, i.created_at,
			i.used_at, i.used_by, i.withdrawn_at, `+ownerName("o")+` AS owner_name, o.plan AS owner_plan,
			EXISTS (SELECT 1 FROM team_members m WHERE m.owner_id = i.owner_id AND m.member_id = ?2) AS member
		FROM invites i JOIN accounts o ON o.id = i.owner_id WHERE i.token_hash = ?1`, tokenHash, callerID))
	if err != nil {
		return inviteState{}, err
	}
	if row == nil {
		return inviteState{}, ErrInviteNotFound
	}
	var s inviteState
	return s, store.Decode(row, &s)
}

// problem is why the caller cannot accept the invite now, nil when it
// can. The invite's own state comes first (withdrawn, used, expired), then
// the caller's (own team, email, the owner's plan, membership).
func (s inviteState) problem(callerID, verifiedEmail string, now, cutoff int64) error {
	switch {
	case s.WithdrawnAt != nil:
		return ErrInviteNotFound
	case s.UsedAt != nil:
		return ErrInviteUsed
	case s.CreatedAt <= cutoff:
		return ErrInviteExpired
	case s.OwnerID == callerID:
		return ErrInviteOwnTeam
	case s.Email != nil && !SameEmail(*s.Email, verifiedEmail):
		return ErrInviteEmail
	case !limitsOf(s.OwnerPlan).Teams:
		return ErrTeamsPlan
	case s.Member != 0:
		return ErrAlreadyMember
	}
	return nil
}

// SameEmail compares two addresses as invites do: trimmed, in any case
// (Unicode case folding); "" matches nothing.
func SameEmail(a, b string) bool {
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	return a != "" && strings.EqualFold(a, b)
}

// AcceptInvite makes the caller a member of the invite's team with the
// invite's role and marks the invite used by the caller, in one batch. The
// UPDATE that claims the invite holds every condition that can change
// (still unused, not withdrawn, not expired, the owner's plan includes
// teams, not a member yet), so of parallel accepts exactly one succeeds;
// the membership insert follows in the same batch only for the claim just
// made. The invite's email never changes, so it is checked before.
// verifiedEmail is the caller's verified email ("" without one). Errors:
// ErrInviteNotFound, ErrInviteUsed, ErrInviteExpired, ErrInviteOwnTeam,
// ErrInviteEmail, ErrTeamsPlan, ErrAlreadyMember.
func (r *Repo) AcceptInvite(ctx context.Context, tokenHash, callerID, verifiedEmail string) (Team, error) {
	s, err := r.inviteState(ctx, tokenHash, callerID)
	if err != nil {
		return Team{}, err
	}
	now := r.nowMs()
	if err := s.problem(callerID, verifiedEmail, now, cutoff(now)); err != nil {
		return Team{}, err
	}
	notMember := "NOT EXISTS (SELECT 1 FROM team_members m WHERE m.owner_id = invites.owner_id AND m.member_id = ?2)"
	res, err := r.db.Batch(ctx, []store.Stmt{
		store.Q(`UPDATE invites SET used_at = ?3, used_by = ?2
			WHERE id = ?1 AND `+openInvite("?4")+` AND owner_id <> ?2 AND `+notMember+`
				AND EXISTS (SELECT 1 FROM accounts o WHERE o.id = invites.owner_id AND o.plan IN (`+teamPlanList()+`))`,
			s.ID, callerID, now, cutoff(now)),
		store.Q(`INSERT INTO team_members (id, owner_id, member_id, role, created_at)
			SELECT ?4, owner_id, ?2, role, ?3 FROM invites
			WHERE id = ?1 AND used_by = ?2 AND used_at = ?3 AND `+notMember,
			s.ID, callerID, now, NewID("tm")),
	})
	if errors.Is(err, store.ErrConstraint) {
		return Team{}, ErrNotFound // the caller's account is gone (foreign key)
	}
	if err != nil {
		return Team{}, err
	}
	if res[0].Meta.Changes == 0 {
		// Another request changed the invite or the team in between.
		if s, err = r.inviteState(ctx, tokenHash, callerID); err != nil {
			return Team{}, err
		}
		if err := s.problem(callerID, verifiedEmail, now, cutoff(now)); err != nil {
			return Team{}, err
		}
		return Team{}, ErrInviteUsed
	}
	return Team{OwnerID: s.OwnerID, OwnerName: s.OwnerName, Role: s.Role}, nil
}
