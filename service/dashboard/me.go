package dashboard

import (
	"errors"
	"net/http"
	"strings"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/auth"
	"github.com/emojisearch/emojisearch/service/httpx"
)

// accountJSON is the Account object of the answers.
type accountJSON struct {
	ID        string  `json:"id"`
	Email     *string `json:"email"`
	Name      string  `json:"name"`
	Plan      string  `json:"plan"`
	CreatedAt int64   `json:"createdAt"`
}

type teamJSON struct {
	OwnerID   string `json:"ownerId"`
	OwnerName string `json:"ownerName"`
	Role      string `json:"role"`
}

type profileJSON struct {
	Account      accountJSON `json:"account"`
	Plan         string      `json:"plan"`
	AppCount     int64       `json:"appCount"`
	WaitlistPlan *string     `json:"waitlistPlan"`
	Teams        []teamJSON  `json:"teams"`
}

func (d *Dashboard) getMe(w http.ResponseWriter, r *http.Request) {
	a, _, ok := d.Caller(w, r)
	if !ok {
		return
	}
	d.writeProfile(w, r, a)
}

func (d *Dashboard) writeProfile(w http.ResponseWriter, r *http.Request, a accounts.Account) {
	ctx := r.Context()
	n, err := d.repo.AppCount(ctx, a.ID)
	if err != nil {
		d.internal(w, "profile", err)
		return
	}
	wp, err := d.repo.WaitlistPlan(ctx, a)
	if err != nil {
		d.internal(w, "profile", err)
		return
	}
	teams, err := d.repo.Teams(ctx, a.ID)
	if err != nil {
		d.internal(w, "profile", err)
		return
	}
	p := profileJSON{Account: accountOut(a), Plan: a.Plan, AppCount: n, WaitlistPlan: optional(wp), Teams: []teamJSON{}}
	for _, t := range teams {
		p.Teams = append(p.Teams, teamJSON(t))
	}
	httpx.JSON(w, http.StatusOK, p)
}

func accountOut(a accounts.Account) accountJSON {
	return accountJSON{ID: a.ID, Email: a.Email, Name: a.Name, Plan: a.Plan, CreatedAt: a.CreatedAt}
}

// optional is nil for "", so JSON says null.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// DeletePhrase confirms the deletion of an account without an email.
const DeletePhrase = "delete my account"

// deleteMe deletes the caller's account (spec 2, Account deletion): images
// first, nothing else when that fails; then every row in one batch; then
// the identity-provider user, best effort.
func (d *Dashboard) deleteMe(w http.ResponseWriter, r *http.Request) {
	a, id, ok := d.Caller(w, r)
	if !ok {
		return
	}
	var body struct {
		Confirm *string `json:"confirm"`
	}
	if !DecodeJSON(w, r, &body) {
		return
	}
	if body.Confirm == nil || !confirms(a, *body.Confirm) {
		want := "your account's email"
		if a.Email == nil {
			want = `the phrase "` + DeletePhrase + `"`
		}
		Fail(w, http.StatusBadRequest, Error{Code: "confirmation_required", Field: "confirm",
			Message: "Type " + want + " in confirm to delete the account."})
		return
	}
	ctx := r.Context()
	images, err := d.repo.DeletionImages(ctx, a.ID)
	if err != nil {
		d.internal(w, "delete_account", err)
		return
	}
	if len(images) > 0 {
		if d.cfg.objects == nil {
			storageUnavailable(w)
			return
		}
		if err := d.cfg.objects.Delete(ctx, images); err != nil {
			d.cfg.logf("dashboard: delete_account images failed: %s", errorKind(err))
			storageUnavailable(w)
			return
		}
	}
	if err := d.repo.DeleteAccount(ctx, a); err != nil {
		d.internal(w, "delete_account", err)
		return
	}
	idpDeleted := false
	if d.cfg.users != nil {
		err := d.cfg.users.DeleteUser(ctx, id.Subject)
		idpDeleted = err == nil || errors.Is(err, auth.ErrUserNotFound)
		if !idpDeleted {
			d.cfg.logf("dashboard: delete_idp_user failed: %s", errorKind(err))
		}
	}
	httpx.JSON(w, http.StatusOK, map[string]bool{"ok": true, "idpUserDeleted": idpDeleted})
}

// confirms applies the rule of Account deletion 1: the email in any case
// with spaces trimmed, or the phrase for an account without an email.
func confirms(a accounts.Account, confirm string) bool {
	confirm = strings.TrimSpace(confirm)
	if a.Email == nil {
		return strings.EqualFold(confirm, DeletePhrase)
	}
	return confirm != "" && strings.EqualFold(confirm, strings.TrimSpace(*a.Email))
}

func storageUnavailable(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "60")
	Fail(w, http.StatusServiceUnavailable, Error{Code: "storage_unavailable",
		Message: "Stored images could not be deleted; nothing was deleted. Try again."})
}

// devAvailable: development sign-in exists only in the development
// environment and on localhost; elsewhere the routes answer 404.
func (d *Dashboard) devAvailable(w http.ResponseWriter, r *http.Request) bool {
	if d.cfg.env == EnvDevelopment && d.cfg.authn.DevAllowed(r) {
		return true
	}
	Fail(w, http.StatusNotFound, errNotFound)
	return false
}

func (d *Dashboard) devSignIn(w http.ResponseWriter, r *http.Request) {
	if !d.devAvailable(w, r) {
		return
	}
	cookie, id, err := d.cfg.authn.DevSignIn(r, r.URL.Query().Get("login"))
	switch {
	case errors.Is(err, auth.ErrDevLogin):
		invalid(w, "login", "login must be 1 to 64 characters of a-z 0-9 . _ - starting with a letter or digit.")
		return
	case err != nil:
		Fail(w, http.StatusNotFound, errNotFound)
		return
	}
	a, ok := d.accountOf(w, r, id)
	if !ok {
		return
	}
	http.SetCookie(w, cookie)
	d.writeProfile(w, r, a)
}

func (d *Dashboard) devSignOut(w http.ResponseWriter, r *http.Request) {
	if !d.devAvailable(w, r) {
		return
	}
	http.SetCookie(w, auth.DevSignOut())
	httpx.JSON(w, http.StatusOK, map[string]bool{"ok": true})
}
