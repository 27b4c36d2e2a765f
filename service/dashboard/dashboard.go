// Package dashboard serves the dashboard API under /api/ (spec 2): the
// signed-in account, development sign-in, apps, keys, usage, billing, the
// plan-upgrade waitlist request, account deletion, the public waitlist, and
// the team with its invites. Routes share the exported helpers (Caller,
// AppFor, TeamFor, RequireRole, Fail, DecodeJSON).
//
// Every error is {"error": {"code", "message", "field"?, "plan"?}} and every
// answer carries Cache-Control: no-store. No access to an app or key
// answers like a missing one (404 not_found); a role too low answers 403
// forbidden_role. Roles: owner > admin > developer > viewer; memberships
// count only while the owner's plan includes teams.
//
// # Bodies the spec leaves to us
//
// JSON bodies must be sent as application/json (else 415
// unsupported_media_type), at most 16 KB (413 body_too_large); malformed
// JSON answers 400 invalid_json, a field of the wrong type or value 400
// invalid_request with field.
//
//	Account  {id, email (null without one), name, plan, createdAt}
//	App      {id, name, environment, emojiSet, createdAt, ownerId, ownerName, role}
//	Key      {id, appId, kind, hint, allowedOrigins, createdAt, revokedAt (null while active), status: active|revoked}
//	Member   {id (the member's account id), name, email, role, joinedAt}
//	Invite   {id, role, email (null: anyone with the link), createdAt, expiresAt, createdBy (null when gone)}
//
//	GET    /api/me                 {account, plan, appCount, waitlistPlan, teams: [{ownerId, ownerName, role}]}
//	DELETE /api/me                 {confirm} → {ok: true, idpUserDeleted}
//	GET    /api/auth/dev?login=    sets the cookie, answers as GET /api/me
//	POST   /api/auth/logout        clears the cookie, {ok: true}
//	GET    /api/apps               {apps: App[]}: own apps oldest first, then team apps
//	POST   /api/apps               {name, environment?} → 201 {app}
//	GET    /api/apps/:id           {app, keys: Key[]}
//	PATCH  /api/apps/:id           {name?, emojiSet?} → {app}
//	POST   /api/apps/:id/keys      {kind, allowedOrigins?} → 201 {key, fullKey}
//	PATCH  /api/keys/:id           {allowedOrigins} → {key}
//	DELETE /api/keys/:id           → {key} (revoked; revoking again keeps the first time)
//	GET    /api/apps/:id/usage     {appId, period, plan, usage: {<metric>: {used, limit, percent, status, appUsed}}, days: [{day, searches, misses}]}
//	GET    /api/billing[?owner=]   {plan, period, usage: {<metric>: n}, limits: {<metric>: n|null, maxApps}, appCount, provider: null, waitlistPlan}
//	POST   /api/billing/upgrade    {plan, email?} → {status: "waitlist", plan}
//	POST   /api/waitlist           {email, plan?} → {status: "waitlist", plan}, or 303 for forms
//	GET    /api/team[?owner=]      {ownerId, role (the caller's), members: Member[], invites: Invite[]}
//	POST   /api/team/invites       {role, email?} → 201 {invite, url}
//	DELETE /api/team/invites/:id   → {ok: true}
//	PATCH  /api/team/members/:id   {role} → {member}
//	DELETE /api/team/members/:id   → {ok: true}
//	POST   /api/invites/:token/accept → {team: {ownerId, ownerName, role}}
//
// Values: environment is development or production (default production:
// the stricter key rules); kind is publishable or secret; emojiSet is
// native, twemoji, openmoji or noto. App names are 1 to 64 characters
// after trimming, without control characters. allowedOrigins holds at most
// 50 origins (https, http, or a browser-extension scheme), stored
// normalized and deduplicated; an empty list is allowed for publishable
// keys of development apps only, and secret keys take none (servers send no
// Origin). A revoked key's origins cannot change (409 key_revoked).
//
// Usage status values: "ok" below 80 % of the limit, "warning" from 80 %,
// "over" once the limit is reached (the search service answers
// overLimit from there); an unlimited metric is "ok" with percent and limit
// null. percent is rounded down to one decimal. A limit of 0 with nothing
// used reads 0 % and "ok".
//
// Upgrade: plan must be solo, pro or scale and higher than the current
// plan (409 plan_not_higher); the waitlist entry uses email, else the
// account's email (400 invalid_request field email without either).
//
// Account deletion: idpUserDeleted is true when the injected UserDeleter
// deleted the user (or it was already gone); false without one or when it
// failed, so the front end deletes the user itself.
//
// Waitlist: plan defaults to pro. A form post without Accept:
// application/json answers 303 to <website><WaitlistPath> with
// ?waitlist=ok#waitlist-ok, or ?waitlist=error&reason=<code>#waitlist-error
// (codes invalid_request, rate_limited). JSON answers use the error shape
// (429 rate_limited with Retry-After: 60). Only the configured website
// origins may post (403 forbidden_origin); a post without Origin uses the
// first. A limiter that fails lets the post through.
//
// # Teams
//
// Every /api/team route takes ?owner= (TeamFor) and needs a plan with
// teams on the owner's account: the owner gets 402 plan_required (plan
// pro) without one, members get 404 (their memberships do not count then,
// and count again once the plan includes teams). members lists the owner
// first, then admins, developers and viewers, oldest membership first;
// every member sees names and emails. invites lists open invites (not
// used, withdrawn or expired), newest first, to admins and the owner only;
// developers and viewers get [].
//
// Rank rules: the owner role is never granted (role owner is 400
// invalid_request field role) and the owner can be neither changed nor
// removed (409 owner_immutable, also for the owner itself). An admin may
// invite or set any role up to admin, and may change or remove only
// developers and viewers: not other admins, not itself (403
// forbidden_role); only the owner manages admins. Any member may leave:
// DELETE /api/team/members/<own id>. The checks are part of the writes, so
// a caller demoted or removed meanwhile gets 403 or 404.
//
// Invites: role is admin, developer or viewer; email is optional (null,
// missing or blank: anyone with the link) and kept as sent, trimmed. A team
// has at most 50 open invites (409 invite_limit). The link is
// <dashboard URL>/invite/<token> (WithDashboardURL; without one it is the
// relative /invite/<token>); the token (256 random bits, base64url) is
// answered once, only its SHA-256 is stored, and it is never logged.
// Invites stay valid when their creator leaves the team. Withdrawing
// answers 404 not_found for an invite that is not open.
//
// Accepting checks, in this order: unknown token or withdrawn (404
// invite_not_found), used (410 invite_used), 7 days old (410
// invite_expired), own team (409 invite_own_team), email (403
// invite_email_mismatch; the account's email, which is the last one a
// token sent as verified, compared trimmed and in any case), the owner's
// plan without teams (402 plan_required, the invite stays open), already a
// member (409 already_member). The claim is one batch: an UPDATE … WHERE
// used_at IS NULL holding every condition, then the membership insert for
// that claim, so of parallel accepts exactly one joins and the others get
// 410 invite_used.
//
// Logs hold event names and error types only: never tokens, keys, emails
// or other request text.
package dashboard

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/auth"
	"github.com/emojisearch/emojisearch/service/emojistore"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/store"
)

// Authenticator tells who a request speaks for (*auth.Authenticator).
type Authenticator interface {
	// Authenticate returns the identity of the request's bearer token (or
	// development cookie); auth.ErrUnauthorized or auth.ErrUnconfigured.
	Authenticate(r *http.Request) (auth.Identity, error)
	// DevAllowed reports whether development sign-in applies to r.
	DevAllowed(r *http.Request) bool
	// DevSignIn returns the development cookie for login;
	// auth.ErrDevUnavailable or auth.ErrDevLogin.
	DevSignIn(r *http.Request, login string) (*http.Cookie, auth.Identity, error)
}

// UserDeleter deletes a user at the identity provider (auth.ClerkDeleter).
type UserDeleter interface {
	DeleteUser(ctx context.Context, userID string) error
}

// Objects is the image store (R2): Put stores a custom emoji image;
// Delete removes every key or reports an error, deleting a missing key is
// no error. The adapter splits lists past the binding's 1,000 keys per
// call.
type Objects = emojistore.Objects

// Limiter is a rate limit (access.Limiter; the Rate Limiting binding).
type Limiter = access.Limiter

// Environments the worker runs in; development sign-in needs the first.
const (
	EnvDevelopment = "development"
	EnvProduction  = "production"
)

// DefaultWaitlistPath is the website page waitlist forms return to.
const DefaultWaitlistPath = "/waitlist"

// Config of a Dashboard: an immutable value, each With… returns a copy,
// and New checks it.
type Config struct {
	db           store.DB
	authn        Authenticator
	users        UserDeleter
	objects      Objects
	emojiChanged func(appID string)
	limiter      Limiter
	websites     []string
	waitlistPath string
	dashboardURL string
	env          string
	now          func() time.Time
	logf         func(format string, args ...any)
}

// NewConfig returns a production configuration over the database and the
// authenticator.
func NewConfig(db store.DB, authn Authenticator) Config {
	return Config{db: db, authn: authn, waitlistPath: DefaultWaitlistPath, env: EnvProduction,
		now: time.Now, logf: log.Printf}
}

// WithUserDeleter sets the identity-provider user deleter (nil: the front
// end deletes users, idpUserDeleted false).
func (c Config) WithUserDeleter(u UserDeleter) Config { c.users = u; return c }

// WithObjects sets the image store (nil: deleting an account that has
// images answers 503 storage_unavailable).
func (c Config) WithObjects(o Objects) Config { c.objects = o; return c }

// WithEmojiChanged sets what is told after a custom emoji or tenant
// change is committed (the instance's search index forgets the app's copy).
func (c Config) WithEmojiChanged(fn func(appID string)) Config { c.emojiChanged = fn; return c }

// WithWaitlist sets the website origins allowed to post the waitlist form
// (the first is the default) and the limiter of 5 posts per minute per IP.
func (c Config) WithWaitlist(websites []string, limiter Limiter) Config {
	c.websites = append([]string(nil), websites...)
	c.limiter = limiter
	return c
}

// WithWaitlistPath sets the website page waitlist forms return to.
func (c Config) WithWaitlistPath(p string) Config { c.waitlistPath = p; return c }

// WithDashboardURL sets the dashboard's base URL, which invite links are
// built on ("": links are relative, /invite/<token>).
func (c Config) WithDashboardURL(u string) Config { c.dashboardURL = u; return c }

// WithEnvironment sets the worker's environment (development or
// production).
func (c Config) WithEnvironment(env string) Config { c.env = env; return c }

// WithClock sets the clock.
func (c Config) WithClock(now func() time.Time) Config { c.now = now; return c }

// WithLog sets where event names and error types are logged.
func (c Config) WithLog(logf func(format string, args ...any)) Config { c.logf = logf; return c }

// Dashboard serves the /api routes.
type Dashboard struct {
	cfg      Config
	repo     *accounts.Repo
	emoji    *emojistore.Store // custom emoji and tenants (emoji.go)
	websites []string          // normalized origins
}

// New checks cfg, reporting every problem at once.
func New(cfg Config) (*Dashboard, error) {
	var errs []error
	if cfg.db == nil {
		errs = append(errs, errors.New("no database"))
	}
	if cfg.authn == nil {
		errs = append(errs, errors.New("no authenticator"))
	}
	if cfg.env != EnvDevelopment && cfg.env != EnvProduction {
		errs = append(errs, fmt.Errorf("environment %q: want development or production", cfg.env))
	}
	if cfg.now == nil {
		errs = append(errs, errors.New("no clock"))
	}
	if cfg.logf == nil {
		errs = append(errs, errors.New("no log"))
	}
	if len(cfg.websites) == 0 {
		errs = append(errs, errors.New("no website origins for the waitlist"))
	}
	if cfg.limiter == nil {
		errs = append(errs, errors.New("no waitlist limiter"))
	}
	if !strings.HasPrefix(cfg.waitlistPath, "/") || strings.HasPrefix(cfg.waitlistPath, "//") {
		errs = append(errs, fmt.Errorf("waitlist path %q: want an absolute path", cfg.waitlistPath))
	}
	if err := checkDashboardURL(cfg.dashboardURL); err != nil {
		errs = append(errs, err)
	}
	var sites []string
	for _, s := range cfg.websites {
		n, ok := access.NormalizeOrigin(s)
		if !ok || (!strings.HasPrefix(n, "https://") && !strings.HasPrefix(n, "http://")) {
			errs = append(errs, fmt.Errorf("website origin %q: want scheme://host[:port]", s))
			continue
		}
		sites = append(sites, n)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("dashboard: %w", errors.Join(errs...))
	}
	return &Dashboard{cfg: cfg, repo: accounts.New(accounts.NewConfig(cfg.db).WithClock(cfg.now)),
		emoji:    emojistore.New(emojistore.NewConfig(cfg.db).WithObjects(cfg.objects).WithClock(cfg.now).WithLog(cfg.logf).WithChanged(cfg.emojiChanged)),
		websites: sites}, nil
}

// Repo is the accounts repository the dashboard uses (same clock).
func (d *Dashboard) Repo() *accounts.Repo { return d.repo }

// Route is one /api path and its handler per method.
type Route struct {
	Pattern string
	Methods map[string]http.HandlerFunc
}

// Routes registers the /api routes on r: the dashboard's own and more (the
// webhook and import routes), each with the /api conventions (no-store, 405
// with Allow in the dashboard's error shape), then the answers for refused
// input and the JSON 404 of every other /api path. Call it once, with every
// /api route: the catch-all answers whatever is registered after it.
func (d *Dashboard) Routes(r *httpx.Router, more ...Route) {
	routes := []Route{
		{"/api/me", map[string]http.HandlerFunc{http.MethodGet: d.getMe, http.MethodDelete: d.deleteMe}},
		{"/api/auth/dev", map[string]http.HandlerFunc{http.MethodGet: d.devSignIn}},
		{"/api/auth/logout", map[string]http.HandlerFunc{http.MethodPost: d.devSignOut}},
		{"/api/apps", map[string]http.HandlerFunc{http.MethodGet: d.listApps, http.MethodPost: d.createApp}},
		{"/api/apps/:id", map[string]http.HandlerFunc{http.MethodGet: d.getApp, http.MethodPatch: d.patchApp}},
		{"/api/apps/:id/keys", map[string]http.HandlerFunc{http.MethodPost: d.createKey}},
		{"/api/keys/:id", map[string]http.HandlerFunc{http.MethodPatch: d.patchKey, http.MethodDelete: d.revokeKey}},
		{"/api/apps/:id/usage", map[string]http.HandlerFunc{http.MethodGet: d.appUsage}},
		{"/api/apps/:id/analytics", map[string]http.HandlerFunc{http.MethodGet: d.appAnalytics}},
		{"/api/billing", map[string]http.HandlerFunc{http.MethodGet: d.billing}},
		{"/api/billing/upgrade", map[string]http.HandlerFunc{http.MethodPost: d.upgrade}},
		{"/api/waitlist", map[string]http.HandlerFunc{http.MethodPost: d.waitlist}},
		{"/api/team", map[string]http.HandlerFunc{http.MethodGet: d.getTeam}},
		{"/api/team/invites", map[string]http.HandlerFunc{http.MethodPost: d.createInvite}},
		{"/api/team/invites/:id", map[string]http.HandlerFunc{http.MethodDelete: d.withdrawInvite}},
		{"/api/team/members/:id", map[string]http.HandlerFunc{http.MethodPatch: d.patchMember, http.MethodDelete: d.removeMember}},
		{"/api/invites/:token/accept", map[string]http.HandlerFunc{http.MethodPost: d.acceptInvite}},
	}
	for _, rt := range slices.Concat(more, routes, d.customRoutes()) {
		for m, h := range rt.Methods {
			r.Handle(m, rt.Pattern, noStore(h))
		}
		r.HandleOther(rt.Pattern, func(allow []string) http.Handler { return noStore(methodNotAllowed(allow)) })
	}
	// Text that is not UTF-8 (refused by the router): 400 in the
	// dashboard's error shape.
	r.HandleInvalid("/api/", func(in httpx.Invalid) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			e := Error{Code: "invalid_request", Message: in.Message, Field: in.Field}
			if in.Where == "body" {
				e = Error{Code: "invalid_json", Message: in.Message}
			}
			Fail(w, http.StatusBadRequest, e)
		})
	})
	// Any other /api path: 404 in the dashboard's error shape.
	r.HandleOther("/api/*rest", func([]string) http.Handler {
		return noStore(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			Fail(w, http.StatusNotFound, Error{Code: "not_found", Message: "No such dashboard route: " + req.URL.Path})
		}))
	})
}

// noStore marks every dashboard answer private to the caller.
func noStore(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		h.ServeHTTP(w, r)
	})
}

func methodNotAllowed(allow []string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		Fail(w, http.StatusMethodNotAllowed, Error{Code: "method_not_allowed",
			Message: "Method " + r.Method + " is not allowed here; use " + strings.Join(allow, " or ")})
	}
}

// internal answers 500 for an unexpected failure and logs the event and
// the error's type only (messages can quote request data).
func (d *Dashboard) internal(w http.ResponseWriter, event string, err error) {
	d.cfg.logf("dashboard: %s failed: %s", event, errorKind(err))
	Fail(w, http.StatusInternalServerError, Error{Code: "internal_error", Message: "Something went wrong; try again."})
}

// errorKind names an error without its text.
func errorKind(err error) string {
	switch {
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "deadline"
	case errors.Is(err, store.ErrConstraint):
		return "constraint"
	case errors.Is(err, store.ErrBind):
		return "bind"
	}
	return fmt.Sprintf("%T", err)
}
