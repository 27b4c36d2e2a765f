package dashboard

import (
	"errors"
	"net/http"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/auth"
)

// Caller authenticates r and returns the caller's account, creating it on
// a first request (spec 2, Authentication 3). It answers and returns false
// for: no or a bad token (401 unauthorized), an identity provider that is
// not configured (503 clerk_unconfigured), a user deleted in the last ten
// minutes (401), and a new user without a verified email (403
// email_required, no account created).
func (d *Dashboard) Caller(w http.ResponseWriter, r *http.Request) (accounts.Account, auth.Identity, bool) {
	id, err := d.cfg.authn.Authenticate(r)
	switch {
	case errors.Is(err, auth.ErrUnconfigured):
		Fail(w, http.StatusServiceUnavailable, Error{Code: "clerk_unconfigured",
			Message: "Sign-in is not configured on this service."})
		return accounts.Account{}, auth.Identity{}, false
	case err != nil || id.Subject == "":
		unauthorized(w)
		return accounts.Account{}, auth.Identity{}, false
	}
	a, ok := d.accountOf(w, r, id)
	return a, id, ok
}

func unauthorized(w http.ResponseWriter) {
	Fail(w, http.StatusUnauthorized, Error{Code: "unauthorized", Message: "Sign in to continue."})
}

// accountOf finds or creates the account of an authenticated identity.
func (d *Dashboard) accountOf(w http.ResponseWriter, r *http.Request, id auth.Identity) (accounts.Account, bool) {
	ctx := r.Context()
	a, err := d.repo.AccountByIdentity(ctx, id.Subject)
	if err == nil {
		if id.EmailVerified {
			a, err = d.repo.RefreshProfile(ctx, a, id)
		} else {
			a, err = d.repo.RefreshProfile(ctx, a, auth.Identity{Name: id.Name})
		}
		if err != nil {
			d.internal(w, "refresh_profile", err)
			return accounts.Account{}, false
		}
		return a, true
	}
	if !errors.Is(err, accounts.ErrNotFound) {
		d.internal(w, "find_account", err)
		return accounts.Account{}, false
	}
	gone, err := d.repo.RecentlyDeleted(ctx, id.Subject)
	if err != nil {
		d.internal(w, "deleted_users", err)
		return accounts.Account{}, false
	}
	if gone {
		unauthorized(w)
		return accounts.Account{}, false
	}
	if !id.EmailVerified || id.Email == "" {
		Fail(w, http.StatusForbidden, Error{Code: "email_required",
			Message: "Verify an email address with your sign-in provider first."})
		return accounts.Account{}, false
	}
	a, err = d.repo.CreateAccount(ctx, id)
	if err != nil {
		d.internal(w, "create_account", err)
		return accounts.Account{}, false
	}
	return a, true
}

// AppFor returns the app with the caller's role when the role is min or
// higher. It answers 404 not_found for a missing app or no access, and 403
// forbidden_role for a role below min.
func (d *Dashboard) AppFor(w http.ResponseWriter, r *http.Request, appID string, caller accounts.Account, min string) (accounts.AppEntry, bool) {
	e, err := d.repo.AppFor(r.Context(), appID, caller.ID)
	if errors.Is(err, accounts.ErrNotFound) {
		Fail(w, http.StatusNotFound, errNotFound)
		return accounts.AppEntry{}, false
	}
	if err != nil {
		d.internal(w, "app_access", err)
		return accounts.AppEntry{}, false
	}
	return e, RequireRole(w, e.Role, min)
}

// TeamFor resolves the account a team or billing route acts on: the
// caller's own, or ?owner=<accountId> when the caller is a member there
// (spec 2, Roles). It answers 404 not_found without access and 403
// forbidden_role for a role below min.
func (d *Dashboard) TeamFor(w http.ResponseWriter, r *http.Request, caller accounts.Account, min string) (accounts.TeamAccess, bool) {
	owner := r.URL.Query().Get("owner")
	if owner == "" {
		owner = caller.ID
	}
	ta, err := d.repo.TeamRole(r.Context(), owner, caller.ID)
	if errors.Is(err, accounts.ErrNotFound) {
		Fail(w, http.StatusNotFound, errNotFound)
		return accounts.TeamAccess{}, false
	}
	if err != nil {
		d.internal(w, "team_access", err)
		return accounts.TeamAccess{}, false
	}
	return ta, RequireRole(w, ta.Role, min)
}

// RequireRole answers 403 forbidden_role and returns false when role is
// below min.
func RequireRole(w http.ResponseWriter, role, min string) bool {
	if accounts.RoleAtLeast(role, min) {
		return true
	}
	Fail(w, http.StatusForbidden, errForbiddenRole)
	return false
}
