package dashboard

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/apikey"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/plans"
)

// Limits of fields the spec leaves to us.
const (
	maxAppName = 64
	maxOrigins = 50
	maxOrigin  = 256
)

type appJSON struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Environment string `json:"environment"`
	EmojiSet    string `json:"emojiSet"`
	CreatedAt   int64  `json:"createdAt"`
	OwnerID     string `json:"ownerId"`
	OwnerName   string `json:"ownerName"`
	Role        string `json:"role"`
}

func appOut(e accounts.AppEntry) appJSON {
	return appJSON{ID: e.ID, Name: e.Name, Environment: e.Environment, EmojiSet: e.EmojiSet,
		CreatedAt: e.CreatedAt, OwnerID: e.AccountID, OwnerName: e.OwnerName, Role: e.Role}
}

type keyJSON struct {
	ID             string   `json:"id"`
	AppID          string   `json:"appId"`
	Kind           string   `json:"kind"`
	Hint           string   `json:"hint"`
	AllowedOrigins []string `json:"allowedOrigins"`
	CreatedAt      int64    `json:"createdAt"`
	RevokedAt      *int64   `json:"revokedAt"`
	Status         string   `json:"status"`
}

func keyOut(k accounts.Key) keyJSON {
	status := "active"
	if k.RevokedAt != nil {
		status = "revoked"
	}
	return keyJSON{ID: k.ID, AppID: k.AppID, Kind: k.Kind, Hint: k.Hint, AllowedOrigins: k.AllowedOrigins,
		CreatedAt: k.CreatedAt, RevokedAt: k.RevokedAt, Status: status}
}

func (d *Dashboard) listApps(w http.ResponseWriter, r *http.Request) {
	a, _, ok := d.Caller(w, r)
	if !ok {
		return
	}
	list, err := d.repo.ListApps(r.Context(), a.ID)
	if err != nil {
		d.internal(w, "list_apps", err)
		return
	}
	out := make([]appJSON, len(list))
	for i, e := range list {
		out[i] = appOut(e)
	}
	httpx.JSON(w, http.StatusOK, map[string][]appJSON{"apps": out})
}

// appName checks and trims an app name.
func appName(w http.ResponseWriter, name string) (string, bool) {
	name = strings.TrimSpace(name)
	n := utf8.RuneCountInString(name)
	if n == 0 || n > maxAppName || strings.ContainsFunc(name, unicode.IsControl) {
		invalid(w, "name", "name must be 1 to 64 characters without control characters.")
		return "", false
	}
	return name, true
}

func (d *Dashboard) createApp(w http.ResponseWriter, r *http.Request) {
	a, _, ok := d.Caller(w, r)
	if !ok {
		return
	}
	var body struct {
		Name        string  `json:"name"`
		Environment *string `json:"environment"`
	}
	if !DecodeJSON(w, r, &body) {
		return
	}
	name, ok := appName(w, body.Name)
	if !ok {
		return
	}
	env := accounts.EnvProduction
	if body.Environment != nil {
		env = *body.Environment
	}
	if env != accounts.EnvDevelopment && env != accounts.EnvProduction {
		invalid(w, "environment", "environment must be development or production.")
		return
	}
	limits := a.Limits()
	app, err := d.repo.CreateApp(r.Context(), a.ID, name, env, limits.MaxApps)
	if errors.Is(err, accounts.ErrMaxApps) {
		next, ok := plans.Cheapest(limits.Rank+1, func(l plans.Limits) bool { return l.MaxApps > limits.MaxApps })
		if !ok {
			Fail(w, http.StatusForbidden, Error{Code: "plan_limit", Message: "The account has the most apps any plan allows."})
			return
		}
		planRequired(w, next.Name, "The "+limits.Name+" plan allows "+strconv.Itoa(limits.MaxApps)+" apps.")
		return
	}
	if err != nil {
		d.internal(w, "create_app", err)
		return
	}
	httpx.JSON(w, http.StatusCreated, map[string]appJSON{"app": appOut(accounts.AppEntry{App: app,
		Role: accounts.RoleOwner, OwnerName: ownerName(a), OwnerPlan: a.Plan})})
}

// ownerName is an account's display name as the repository computes it.
func ownerName(a accounts.Account) string {
	if a.Name != "" {
		return a.Name
	}
	return a.EmailOrEmpty()
}

func (d *Dashboard) getApp(w http.ResponseWriter, r *http.Request) {
	e, ok := d.appRoute(w, r, accounts.RoleViewer)
	if !ok {
		return
	}
	keys, err := d.repo.ListKeys(r.Context(), e.ID)
	if err != nil {
		d.internal(w, "list_keys", err)
		return
	}
	out := make([]keyJSON, len(keys))
	for i, k := range keys {
		out[i] = keyOut(k)
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"app": appOut(e), "keys": out})
}

func (d *Dashboard) patchApp(w http.ResponseWriter, r *http.Request) {
	e, ok := d.appRoute(w, r, accounts.RoleDeveloper)
	if !ok {
		return
	}
	var body struct {
		Name     *string `json:"name"`
		EmojiSet *string `json:"emojiSet"`
	}
	if !DecodeJSON(w, r, &body) {
		return
	}
	var p accounts.AppPatch
	if body.Name != nil {
		name, ok := appName(w, *body.Name)
		if !ok {
			return
		}
		p.Name = &name
	}
	if body.EmojiSet != nil {
		set := *body.EmojiSet
		if !slices.Contains(accounts.EmojiSets, set) {
			invalid(w, "emojiSet", "emojiSet must be one of "+strings.Join(accounts.EmojiSets, ", ")+".")
			return
		}
		solo, _ := plans.Get(plans.Solo)
		if set != accounts.SetNative && limitsOfPlan(e.OwnerPlan).Rank < solo.Rank {
			planRequired(w, plans.Solo, "Hosted emoji sets need the solo plan or higher.")
			return
		}
		p.EmojiSet = &set
	}
	app, err := d.repo.UpdateApp(r.Context(), e.ID, p)
	if errors.Is(err, accounts.ErrNotFound) {
		Fail(w, http.StatusNotFound, errNotFound)
		return
	}
	if err != nil {
		d.internal(w, "update_app", err)
		return
	}
	e.App = app
	httpx.JSON(w, http.StatusOK, map[string]appJSON{"app": appOut(e)})
}

// limitsOfPlan reads a plan's limits; an unknown name counts as Free.
func limitsOfPlan(name string) plans.Limits {
	return accounts.Account{Plan: name}.Limits()
}

// origins checks allowedOrigins for a key of kind on an app in env and
// returns them normalized and deduplicated.
func origins(w http.ResponseWriter, kind, env string, list []string) ([]string, bool) {
	if kind == apikey.Secret {
		if len(list) > 0 {
			invalid(w, "allowedOrigins", "Secret keys are used from servers and take no allowed origins.")
			return nil, false
		}
		return []string{}, true
	}
	if len(list) > maxOrigins {
		invalid(w, "allowedOrigins", "allowedOrigins holds at most 50 origins.")
		return nil, false
	}
	out := []string{}
	for _, o := range list {
		n, ok := access.NormalizeOrigin(o)
		if !ok || len(o) > maxOrigin || !originScheme(n) {
			invalid(w, "allowedOrigins", "Each allowed origin must look like https://example.com (scheme, host, optional port).")
			return nil, false
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	if len(out) == 0 && env != accounts.EnvDevelopment {
		invalid(w, "allowedOrigins", "Publishable keys of production apps need at least one allowed origin.")
		return nil, false
	}
	return out, true
}

// originScheme reports whether an origin's scheme is one browsers send:
// web pages and extensions.
func originScheme(origin string) bool {
	scheme, _, _ := strings.Cut(origin, "://")
	switch scheme {
	case "https", "http", "chrome-extension", "moz-extension", "safari-web-extension":
		return true
	}
	return false
}

func (d *Dashboard) createKey(w http.ResponseWriter, r *http.Request) {
	e, ok := d.appRoute(w, r, accounts.RoleDeveloper)
	if !ok {
		return
	}
	var body struct {
		Kind           string   `json:"kind"`
		AllowedOrigins []string `json:"allowedOrigins"`
	}
	if !DecodeJSON(w, r, &body) {
		return
	}
	if body.Kind != apikey.Publishable && body.Kind != apikey.Secret {
		invalid(w, "kind", "kind must be publishable or secret.")
		return
	}
	list, ok := origins(w, body.Kind, e.Environment, body.AllowedOrigins)
	if !ok {
		return
	}
	k, full, err := d.repo.CreateKey(r.Context(), e.ID, body.Kind, list)
	if errors.Is(err, accounts.ErrNotFound) {
		Fail(w, http.StatusNotFound, errNotFound)
		return
	}
	if err != nil {
		d.internal(w, "create_key", err)
		return
	}
	httpx.JSON(w, http.StatusCreated, map[string]any{"key": keyOut(k), "fullKey": full})
}

// appRoute authenticates the caller and resolves the app of the :id path
// parameter with role min or higher (see AppFor).
func (d *Dashboard) appRoute(w http.ResponseWriter, r *http.Request, min string) (accounts.AppEntry, bool) {
	a, _, ok := d.Caller(w, r)
	if !ok {
		return accounts.AppEntry{}, false
	}
	return d.AppFor(w, r, httpx.Param(r, "id"), a, min)
}

// keyRoute authenticates the caller and resolves the key of the :id path
// parameter and its app, when the caller has min on the app; 404
// not_found for no key or no access.
func (d *Dashboard) keyRoute(w http.ResponseWriter, r *http.Request, min string) (accounts.Key, accounts.AppEntry, bool) {
	caller, _, ok := d.Caller(w, r)
	if !ok {
		return accounts.Key{}, accounts.AppEntry{}, false
	}
	k, err := d.repo.Key(r.Context(), httpx.Param(r, "id"))
	if errors.Is(err, accounts.ErrNotFound) {
		Fail(w, http.StatusNotFound, errNotFound)
		return accounts.Key{}, accounts.AppEntry{}, false
	}
	if err != nil {
		d.internal(w, "key", err)
		return accounts.Key{}, accounts.AppEntry{}, false
	}
	e, ok := d.AppFor(w, r, k.AppID, caller, min)
	return k, e, ok
}

func (d *Dashboard) patchKey(w http.ResponseWriter, r *http.Request) {
	k, e, ok := d.keyRoute(w, r, accounts.RoleDeveloper)
	if !ok {
		return
	}
	var body struct {
		AllowedOrigins *[]string `json:"allowedOrigins"`
	}
	if !DecodeJSON(w, r, &body) {
		return
	}
	if body.AllowedOrigins == nil {
		invalid(w, "allowedOrigins", "Send allowedOrigins, the full new list.")
		return
	}
	list, ok := origins(w, k.Kind, e.Environment, *body.AllowedOrigins)
	if !ok {
		return
	}
	k, err := d.repo.SetAllowedOrigins(r.Context(), k.ID, list)
	switch {
	case errors.Is(err, accounts.ErrKeyRevoked):
		Fail(w, http.StatusConflict, Error{Code: "key_revoked", Message: "The key is revoked."})
	case errors.Is(err, accounts.ErrNotFound):
		Fail(w, http.StatusNotFound, errNotFound)
	case err != nil:
		d.internal(w, "patch_key", err)
	default:
		httpx.JSON(w, http.StatusOK, map[string]keyJSON{"key": keyOut(k)})
	}
}

func (d *Dashboard) revokeKey(w http.ResponseWriter, r *http.Request) {
	k, _, ok := d.keyRoute(w, r, accounts.RoleDeveloper)
	if !ok {
		return
	}
	k, err := d.repo.RevokeKey(r.Context(), k.ID)
	switch {
	case errors.Is(err, accounts.ErrNotFound):
		Fail(w, http.StatusNotFound, errNotFound)
	case err != nil:
		d.internal(w, "revoke_key", err)
	default:
		httpx.JSON(w, http.StatusOK, map[string]keyJSON{"key": keyOut(k)})
	}
}
