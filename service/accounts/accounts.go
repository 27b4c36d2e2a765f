// Package accounts is the repository of accounts and what they own (spec 2):
// accounts, apps, API keys, monthly usage, team roles, the waitlist and
// account deletion, over store.DB (D1 in the Worker, SQLite in tests).
//
// Every multi-statement change is one store batch (D1 has no
// transactions), and every check that must hold under concurrency (the
// plan's maxApps, usage for apps that may be gone) is part of the statement
// that writes. Struct json tags here name table columns, for decoding rows;
// the HTTP shapes live in service/dashboard.
package accounts

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/emojisearch/emojisearch/service/auth"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/store"
)

// Errors callers map to answers.
var (
	// ErrNotFound: no such row (or, for a caller, no access to it).
	ErrNotFound = errors.New("accounts: not found")
	// ErrMaxApps: the account owns its plan's maxApps apps already.
	ErrMaxApps = errors.New("accounts: app limit of the plan reached")
	// ErrKeyRevoked: the key is revoked and cannot change any more.
	ErrKeyRevoked = errors.New("accounts: key is revoked")
)

// DeletedUserMemory is how long a deleted identity-provider user id is
// remembered (spec 2, Account deletion 5).
const DeletedUserMemory = 10 * time.Minute

// Repo reads and writes accounts and what they own.
type Repo struct {
	db  store.DB
	now func() time.Time
}

// Config is the repository's option set (RATIONALE, "One configuration
// style").
type Config struct {
	db  store.DB
	now func() time.Time
}

// NewConfig is the defaults over db: time.Now.
func NewConfig(db store.DB) Config { return Config{db: db, now: time.Now} }

// WithClock sets the clock.
func (c Config) WithClock(now func() time.Time) Config { c.now = now; return c }

// New returns a Repo.
func New(c Config) *Repo {
	if c.now == nil {
		c.now = time.Now
	}
	return &Repo{db: c.db, now: c.now}
}

func (r *Repo) nowMs() int64 { return r.now().UnixMilli() }

// Account is one account row.
type Account struct {
	ID        string  `json:"id"`
	IdpUserID string  `json:"idp_user_id"`
	Email     *string `json:"email"`
	Name      string  `json:"name"`
	Plan      string  `json:"plan"`
	CreatedAt int64   `json:"created_at"`
}

// EmailOrEmpty is the account's email, "" when it has none.
func (a Account) EmailOrEmpty() string {
	if a.Email == nil {
		return ""
	}
	return *a.Email
}

// Limits returns the account's plan limits (Free for an unknown name, so a
// bad row never grants more).
func (a Account) Limits() plans.Limits { return limitsOf(a.Plan) }

func limitsOf(plan string) plans.Limits {
	l, err := plans.Get(plan)
	if err != nil {
		l, _ = plans.Get(plans.Free)
	}
	return l
}

const accountCols = "id, idp_user_id, email, name, plan, created_at"

// Account returns the account with the id.
func (r *Repo) Account(ctx context.Context, id string) (Account, error) {
	return r.accountWhere(ctx, "id = ?", id)
}

// AccountByIdentity returns the account of an identity-provider user.
func (r *Repo) AccountByIdentity(ctx context.Context, subject string) (Account, error) {
	return r.accountWhere(ctx, "idp_user_id = ?", subject)
}

func (r *Repo) accountWhere(ctx context.Context, where string, arg any) (Account, error) {
	row, err := r.db.First(ctx, store.Q("SELECT "+accountCols+" FROM accounts WHERE "+where, arg))
	if err != nil {
		return Account{}, err
	}
	if row == nil {
		return Account{}, ErrNotFound
	}
	var a Account
	return a, store.Decode(row, &a)
}

// CreateAccount creates the account of a first-time user on the Free plan
// and returns it; when a parallel first request created it already, that
// account is returned. The route decides beforehand whether the identity
// may have an account (verified email, not just deleted).
func (r *Repo) CreateAccount(ctx context.Context, id auth.Identity) (Account, error) {
	email := nullable(strings.TrimSpace(id.Email))
	_, err := r.db.Run(ctx, store.Q(`INSERT INTO accounts (id, idp_user_id, email, name, plan, created_at)
		VALUES (?, ?, ?, ?, 'free', ?) ON CONFLICT (idp_user_id) DO NOTHING`,
		NewID("acc"), id.Subject, email, id.Name, r.nowMs()))
	if err != nil {
		return Account{}, err
	}
	return r.AccountByIdentity(ctx, id.Subject)
}

// RefreshProfile stores the email and name the identity provider sends now
// when they differ (an empty email keeps the stored one), so deletion
// confirmation and team lists use the current ones.
func (r *Repo) RefreshProfile(ctx context.Context, a Account, id auth.Identity) (Account, error) {
	email := strings.TrimSpace(id.Email)
	if (email == "" || email == a.EmailOrEmpty()) && (id.Name == "" || id.Name == a.Name) {
		return a, nil
	}
	if email != "" {
		a.Email = &email
	}
	if id.Name != "" {
		a.Name = id.Name
	}
	_, err := r.db.Run(ctx, store.Q("UPDATE accounts SET email = ?, name = ? WHERE id = ?", nullable(a.EmailOrEmpty()), a.Name, a.ID))
	return a, err
}

// SetPlan changes an account's plan (operators and tests; the dashboard
// only records waitlist requests).
func (r *Repo) SetPlan(ctx context.Context, accountID, plan string) error {
	if _, err := plans.Get(plan); err != nil {
		return err
	}
	m, err := r.db.Run(ctx, store.Q("UPDATE accounts SET plan = ? WHERE id = ?", plan, accountID))
	if err == nil && m.Changes == 0 {
		return ErrNotFound
	}
	return err
}

// NewID returns a fresh id with a kind prefix, e.g. "app_1f…" (96 random
// bits, hex): text ids survive JavaScript's numbers and say what they name.
func NewID(prefix string) string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("accounts: crypto/rand failed: " + err.Error())
	}
	return prefix + "_" + hex.EncodeToString(b[:])
}

// Period is the UTC month of t, "YYYY-MM", the key of monthly usage.
func Period(t time.Time) string { return t.UTC().Format("2006-01") }

// nullable binds "" as NULL.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
