package accounts

import (
	"context"
	"errors"

	"github.com/emojisearch/emojisearch/service/store"
)

// Environments of an app (spec 2 leaves the values to us): development apps
// may have publishable keys that allow any origin; production apps may not.
const (
	EnvDevelopment = "development"
	EnvProduction  = "production"
)

// Emoji sets an app may show (spec 1, the emojiSet option); every set other
// than native needs Solo or higher.
const (
	SetNative   = "native"
	SetTwemoji  = "twemoji"
	SetOpenmoji = "openmoji"
	SetNoto     = "noto"
)

// EmojiSets lists the valid emoji sets.
var EmojiSets = []string{SetNative, SetTwemoji, SetOpenmoji, SetNoto}

// App is one app row.
type App struct {
	ID          string `json:"id"`
	AccountID   string `json:"account_id"`
	Name        string `json:"name"`
	Environment string `json:"environment"`
	EmojiSet    string `json:"emoji_set"`
	CreatedAt   int64  `json:"created_at"`
}

// AppEntry is an app as a caller sees it in a list or behind a role check.
type AppEntry struct {
	App
	Role      string `json:"role"`
	OwnerName string `json:"owner_name"`
	OwnerPlan string `json:"owner_plan"`
}

const appCols = "a.id, a.account_id, a.name, a.environment, a.emoji_set, a.created_at"

// ListApps returns the account's own apps (oldest first), then the apps of
// the teams it belongs to while their owners' plans include teams.
func (r *Repo) ListApps(ctx context.Context, accountID string) ([]AppEntry, error) {
	tp := teamPlans()
	res, err := r.db.Batch(ctx, []store.Stmt{
		store.Q(`SELECT `+appCols+`, 'owner' AS role, `+ownerName("o")+` AS owner_name, o.plan AS owner_plan
			FROM apps a JOIN accounts o ON o.id = a.account_id
			WHERE a.account_id = ? ORDER BY a.created_at, a.rowid`, accountID),
		store.Q(`SELECT `+appCols+`, m.role, `+ownerName("o")+` AS owner_name, o.plan AS owner_plan
			FROM team_members m JOIN accounts o ON o.id = m.owner_id JOIN apps a ON a.account_id = o.id
			WHERE m.member_id = ? AND o.plan IN (`+placeholders(len(tp))+`)
			ORDER BY owner_name, o.id, a.created_at, a.rowid`, append([]any{accountID}, tp...)...),
	})
	if err != nil {
		return nil, err
	}
	own, err := store.DecodeAll[AppEntry](res[0].Rows)
	if err != nil {
		return nil, err
	}
	team, err := store.DecodeAll[AppEntry](res[1].Rows)
	return append(own, team...), err
}

// AppCount is the number of apps an account owns.
func (r *Repo) AppCount(ctx context.Context, accountID string) (int64, error) {
	row, err := r.db.First(ctx, store.Q("SELECT count(*) AS n FROM apps WHERE account_id = ?", accountID))
	if err != nil {
		return 0, err
	}
	return row.Int("n")
}

// CreateApp creates an app for the account unless it owns maxApps apps
// already (ErrMaxApps). The count is part of the insert, so parallel
// creates never pass the limit.
func (r *Repo) CreateApp(ctx context.Context, accountID, name, environment string, maxApps int) (App, error) {
	app := App{ID: NewID("app"), AccountID: accountID, Name: name, Environment: environment,
		EmojiSet: SetNative, CreatedAt: r.nowMs()}
	m, err := r.db.Run(ctx, store.Q(`INSERT INTO apps (id, account_id, name, environment, emoji_set, created_at)
		SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE (SELECT count(*) FROM apps WHERE account_id = ?2) < ?7`,
		app.ID, app.AccountID, app.Name, app.Environment, app.EmojiSet, app.CreatedAt, maxApps))
	if errors.Is(err, store.ErrConstraint) {
		return App{}, ErrNotFound // the account is gone
	}
	if err != nil {
		return App{}, err
	}
	if m.Changes == 0 {
		return App{}, ErrMaxApps
	}
	return app, nil
}

// AppFor returns an app with the caller's role on it: owner for the
// owner, the membership's role while the owner's plan includes teams.
// ErrNotFound covers both a missing app and no access, as the routes
// answer both alike.
func (r *Repo) AppFor(ctx context.Context, appID, callerID string) (AppEntry, error) {
	row, err := r.db.First(ctx, store.Q(`SELECT `+appCols+`, `+ownerName("o")+` AS owner_name, o.plan AS owner_plan,
			CASE WHEN a.account_id = ?2 THEN 'owner'
			     ELSE (SELECT role FROM team_members m WHERE m.owner_id = a.account_id AND m.member_id = ?2)
			END AS role
		FROM apps a JOIN accounts o ON o.id = a.account_id WHERE a.id = ?1`, appID, callerID))
	if err != nil {
		return AppEntry{}, err
	}
	if row == nil {
		return AppEntry{}, ErrNotFound
	}
	var e AppEntry
	if err := store.Decode(row, &e); err != nil {
		return AppEntry{}, err
	}
	if e.Role == RoleOwner || (MemberRole(e.Role) && limitsOf(e.OwnerPlan).Teams) {
		return e, nil
	}
	return AppEntry{}, ErrNotFound
}

// AppPatch holds the fields of an app to change; nil leaves one as it is.
type AppPatch struct {
	Name     *string
	EmojiSet *string
}

// UpdateApp applies a patch and returns the app as stored.
func (r *Repo) UpdateApp(ctx context.Context, appID string, p AppPatch) (App, error) {
	res, err := r.db.All(ctx, store.Q(`UPDATE apps SET name = coalesce(?, name), emoji_set = coalesce(?, emoji_set)
		WHERE id = ? RETURNING id, account_id, name, environment, emoji_set, created_at`,
		strOrNil(p.Name), strOrNil(p.EmojiSet), appID))
	if err != nil {
		return App{}, err
	}
	if len(res.Rows) == 0 {
		return App{}, ErrNotFound
	}
	var a App
	return a, store.Decode(res.Rows[0], &a)
}

func strOrNil(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}
