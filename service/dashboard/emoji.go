package dashboard

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/emojistore"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/imageintake"
	"github.com/emojisearch/emojisearch/service/plans"
)

// Custom emoji routes (spec 2, custom emoji rules), all through the one
// writer, service/emojistore.
//
//	GET    /api/apps/:id/emoji[?tenantId=]  {emoji: CustomEmoji[], used, limit}, newest first (viewer+, any plan):
//	                                        every emoji of the app, or one tenant's (404 for a tenant of another app)
//	POST   /api/apps/:id/emoji              multipart file, shortcode, aliases, tenantId? → 201 CustomEmoji (Solo+; developer+)
//	PATCH  /api/apps/:id/emoji/:emojiId     {shortcode?, aliases? (string array)} → CustomEmoji (developer+)
//	DELETE /api/apps/:id/emoji/:emojiId     → {ok: true} (developer+, any plan)
//
// A malformed multipart body is 400 invalid_request with field file (spec 2
// names no code of its own for it). limit is null when unlimited. At the
// limit an upload answers 402 plan_required naming the cheapest plan with a
// higher limit, or 403 plan_limit on the top plan. An image store failure
// or a missing binding answers 503 storage_unavailable.

// customRoutes are the custom emoji, tenant and development plan routes.
func (d *Dashboard) customRoutes() []Route {
	return []Route{
		{"/api/apps/:id/emoji", map[string]http.HandlerFunc{http.MethodGet: d.listEmoji, http.MethodPost: d.uploadEmoji}},
		{"/api/apps/:id/emoji/:emojiId", map[string]http.HandlerFunc{http.MethodPatch: d.patchEmoji, http.MethodDelete: d.deleteEmoji}},
		{"/api/apps/:id/tenants", map[string]http.HandlerFunc{http.MethodGet: d.listTenants, http.MethodPost: d.createTenant}},
		{"/api/apps/:id/tenants/:tenantId", map[string]http.HandlerFunc{http.MethodGet: d.getTenant, http.MethodDelete: d.deleteTenant}},
		{"/api/auth/dev/plan", map[string]http.HandlerFunc{http.MethodPost: d.devPlan}},
	}
}

// limitJSON is a limit as JSON: null for unlimited.
func limitJSON(n int64) any {
	if n == plans.Unlimited {
		return nil
	}
	return n
}

func (d *Dashboard) listEmoji(w http.ResponseWriter, r *http.Request) {
	e, ok := d.appRoute(w, r, accounts.RoleViewer)
	if !ok {
		return
	}
	ctx := r.Context()
	var tenant *string
	if r.URL.Query().Has("tenantId") {
		id := r.URL.Query().Get("tenantId")
		if _, err := d.emoji.Tenant(ctx, e.ID, id); err != nil {
			d.storeFailure(w, "list_emoji", err)
			return
		}
		tenant = &id
	}
	list, err := d.emoji.List(ctx, e.ID, tenant)
	if err != nil {
		d.internal(w, "list_emoji", err)
		return
	}
	used, err := d.emoji.Used(ctx, e.AccountID)
	if err != nil {
		d.internal(w, "list_emoji", err)
		return
	}
	base := emojistore.BaseURL(r)
	out := make([]map[string]any, len(list))
	for i, em := range list {
		out[i] = em.View(base, false)
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"emoji": out, "used": used,
		"limit": limitJSON(limitsOfPlan(e.OwnerPlan).CustomEmoji)})
}

func (d *Dashboard) uploadEmoji(w http.ResponseWriter, r *http.Request) {
	e, ok := d.appRoute(w, r, accounts.RoleDeveloper)
	if !ok {
		return
	}
	limits := limitsOfPlan(e.OwnerPlan)
	if limits.CustomEmoji == 0 {
		planRequired(w, cheapestCustom(limits), "Custom emoji need the solo plan or higher.")
		return
	}
	up, uerr := emojistore.ReadUpload(w, r, "shortcode", "aliases", "tenantId")
	if uerr != nil {
		field, code := uerr.Field, uerr.Code
		if code == "invalid_multipart" {
			field, code = "file", "invalid_request"
		}
		Fail(w, uerr.Status, Error{Code: code, Message: uerr.Message, Field: field})
		return
	}
	shortcode, err := emojistore.NormalizeShortcode(up.Fields["shortcode"])
	if err != nil {
		fieldFailure(w, err)
		return
	}
	aliases, err := emojistore.NormalizeAliases(emojistore.SplitAliases(up.Fields["aliases"]))
	if err != nil {
		fieldFailure(w, err)
		return
	}
	img, err := imageintake.Check(up.File, up.FileType)
	if err != nil {
		imageFailure(w, err)
		return
	}
	em, err := d.emoji.Create(r.Context(), emojistore.NewEmoji{AppID: e.ID, TenantID: up.Fields["tenantId"],
		Shortcode: shortcode, Aliases: aliases, Source: emojistore.SourceUpload, Image: up.File, Checked: img,
		Limit: limits.CustomEmoji, Base: emojistore.BaseURL(r)})
	var le *emojistore.LimitError
	switch {
	case errors.Is(err, emojistore.ErrTenantNotFound):
		invalid(w, "tenantId", "tenantId must name a tenant of this app.")
	case errors.As(err, &le):
		next, ok := plans.Cheapest(limits.Rank+1, func(l plans.Limits) bool {
			return l.CustomEmoji == plans.Unlimited || l.CustomEmoji > limits.CustomEmoji
		})
		if !ok {
			Fail(w, http.StatusForbidden, Error{Code: "plan_limit", Message: "The account has " +
				strconv.FormatInt(le.Used, 10) + " custom emoji, the most any plan allows."})
			return
		}
		planRequired(w, next.Name, "The "+limits.Name+" plan allows "+strconv.FormatInt(le.Limit, 10)+" custom emoji.")
	case err != nil:
		d.storeFailure(w, "upload_emoji", err)
	default:
		httpx.JSON(w, http.StatusCreated, em.View(emojistore.BaseURL(r), false))
	}
}

// cheapestCustom is the cheapest plan with custom emoji at all.
func cheapestCustom(l plans.Limits) string {
	next, _ := plans.Cheapest(l.Rank+1, func(p plans.Limits) bool { return p.CustomEmoji != 0 })
	return next.Name
}

func fieldFailure(w http.ResponseWriter, err error) {
	var fe *emojistore.FieldError
	if errors.As(err, &fe) {
		invalid(w, fe.Field, fe.Message)
		return
	}
	invalid(w, "", err.Error())
}

// imageFailure answers an intake refusal with its spec code, field file.
func imageFailure(w http.ResponseWriter, err error) {
	var ie *imageintake.Error
	if !errors.As(err, &ie) {
		ie = imageintake.ErrUnsupported
	}
	Fail(w, ie.Status, Error{Code: ie.Code, Message: ie.Reason, Field: ie.Field()})
}

// storeFailure answers the store's errors: not found (404), a taken
// shortcode (409), the image store (503), else 500.
func (d *Dashboard) storeFailure(w http.ResponseWriter, event string, err error) {
	switch {
	case emojistore.IsNotFound(err):
		Fail(w, http.StatusNotFound, errNotFound)
	case errors.Is(err, emojistore.ErrShortcodeTaken):
		Fail(w, http.StatusConflict, Error{Code: "shortcode_taken", Field: "shortcode",
			Message: "This shortcode exists in the same scope."})
	case errors.Is(err, emojistore.ErrStorage):
		w.Header().Set("Retry-After", "60")
		Fail(w, http.StatusServiceUnavailable, Error{Code: "storage_unavailable",
			Message: "The image store is not reachable; nothing was changed. Try again."})
	default:
		d.internal(w, event, err)
	}
}

// emojiRoute resolves the app (role min) and its emoji of :emojiId.
func (d *Dashboard) emojiRoute(w http.ResponseWriter, r *http.Request, min string) (emojistore.Emoji, bool) {
	e, ok := d.appRoute(w, r, min)
	if !ok {
		return emojistore.Emoji{}, false
	}
	em, err := d.emoji.Get(r.Context(), e.ID, httpx.Param(r, "emojiId"))
	if err != nil {
		d.storeFailure(w, "emoji", err)
		return emojistore.Emoji{}, false
	}
	return em, true
}

func (d *Dashboard) patchEmoji(w http.ResponseWriter, r *http.Request) {
	em, ok := d.emojiRoute(w, r, accounts.RoleDeveloper)
	if !ok {
		return
	}
	var body struct {
		Shortcode *string         `json:"shortcode"`
		Aliases   json.RawMessage `json:"aliases"`
	}
	if !DecodeJSON(w, r, &body) {
		return
	}
	var p emojistore.Patch
	if body.Shortcode != nil {
		sc, err := emojistore.NormalizeShortcode(*body.Shortcode)
		if err != nil {
			fieldFailure(w, err)
			return
		}
		p.Shortcode = &sc
	}
	if len(body.Aliases) > 0 && string(body.Aliases) != "null" {
		var list []string
		if err := json.Unmarshal(body.Aliases, &list); err != nil {
			invalid(w, "aliases", "aliases is an array of strings.")
			return
		}
		norm, err := emojistore.NormalizeAliases(list)
		if err != nil {
			fieldFailure(w, err)
			return
		}
		p.Aliases = &norm
	}
	em, err := d.emoji.Rename(r.Context(), em.AppID, em.ID, p)
	if err != nil {
		d.storeFailure(w, "patch_emoji", err)
		return
	}
	httpx.JSON(w, http.StatusOK, em.View(emojistore.BaseURL(r), false))
}

func (d *Dashboard) deleteEmoji(w http.ResponseWriter, r *http.Request) {
	em, ok := d.emojiRoute(w, r, accounts.RoleDeveloper)
	if !ok {
		return
	}
	if _, err := d.emoji.Delete(r.Context(), em, emojistore.BaseURL(r)); err != nil {
		d.storeFailure(w, "delete_emoji", err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// Tenant routes (Scale): GET/POST /api/apps/:id/tenants, GET/DELETE
// /api/apps/:id/tenants/:tenantId. Cursors and page sizes as the tenants
// API (emojistore.ParsePage); an existing externalId is 409 tenant_exists.

// tenantApp resolves the app with role min on a Scale account (402
// plan_required with plan scale otherwise).
func (d *Dashboard) tenantApp(w http.ResponseWriter, r *http.Request, min string) (accounts.AppEntry, bool) {
	e, ok := d.appRoute(w, r, min)
	if !ok {
		return e, false
	}
	if !limitsOfPlan(e.OwnerPlan).Tenants {
		planRequired(w, plans.Scale, "Tenants need the scale plan.")
		return e, false
	}
	return e, true
}

func (d *Dashboard) listTenants(w http.ResponseWriter, r *http.Request) {
	e, ok := d.tenantApp(w, r, accounts.RoleViewer)
	if !ok {
		return
	}
	page, err := emojistore.ParsePage(r.URL.Query())
	if err != nil {
		fieldFailure(w, err)
		return
	}
	list, next, err := d.emoji.TenantPage(r.Context(), e.ID, page)
	if err != nil {
		d.internal(w, "list_tenants", err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"tenants": list, "nextCursor": next})
}

func (d *Dashboard) createTenant(w http.ResponseWriter, r *http.Request) {
	e, ok := d.tenantApp(w, r, accounts.RoleDeveloper)
	if !ok {
		return
	}
	var body struct {
		ExternalID string `json:"externalId"`
		Name       string `json:"name"`
	}
	if !DecodeJSON(w, r, &body) {
		return
	}
	if !emojistore.ValidExternalID(body.ExternalID) {
		invalid(w, "externalId", "externalId is 1 to 128 characters of letters, digits and . _ ~ : @ + -")
		return
	}
	name, err := emojistore.TenantName(body.Name)
	if err != nil {
		fieldFailure(w, err)
		return
	}
	t, created, err := d.emoji.CreateTenant(r.Context(), e.ID, body.ExternalID, name)
	switch {
	case err != nil:
		d.storeFailure(w, "create_tenant", err)
	case !created:
		Fail(w, http.StatusConflict, Error{Code: "tenant_exists", Field: "externalId", Message: "A tenant with this externalId exists."})
	default:
		httpx.JSON(w, http.StatusCreated, map[string]any{"tenant": t})
	}
}

func (d *Dashboard) tenantRoute(w http.ResponseWriter, r *http.Request, min string) (emojistore.Tenant, bool) {
	e, ok := d.tenantApp(w, r, min)
	if !ok {
		return emojistore.Tenant{}, false
	}
	t, err := d.emoji.Tenant(r.Context(), e.ID, httpx.Param(r, "tenantId"))
	if err != nil {
		d.storeFailure(w, "tenant", err)
		return emojistore.Tenant{}, false
	}
	return t, true
}

func (d *Dashboard) getTenant(w http.ResponseWriter, r *http.Request) {
	if t, ok := d.tenantRoute(w, r, accounts.RoleViewer); ok {
		httpx.JSON(w, http.StatusOK, map[string]any{"tenant": t})
	}
}

func (d *Dashboard) deleteTenant(w http.ResponseWriter, r *http.Request) {
	t, ok := d.tenantRoute(w, r, accounts.RoleDeveloper)
	if !ok {
		return
	}
	n, err := d.emoji.DeleteTenant(r.Context(), t)
	if err != nil {
		d.storeFailure(w, "delete_tenant", err)
		return
	}
	t.EmojiCount = 0
	httpx.JSON(w, http.StatusOK, map[string]any{"tenant": t, "emojiDeleted": n})
}

// devPlan sets the caller's own plan: POST /api/auth/dev/plan {plan}. It
// exists only where development sign-in does (development environment,
// localhost), because spec 2 specifies no plan changes besides waitlist
// requests and the e2e journeys need accounts on every plan.
func (d *Dashboard) devPlan(w http.ResponseWriter, r *http.Request) {
	if !d.devAvailable(w, r) {
		return
	}
	a, _, ok := d.Caller(w, r)
	if !ok {
		return
	}
	var body struct {
		Plan string `json:"plan"`
	}
	if !DecodeJSON(w, r, &body) {
		return
	}
	if _, err := plans.Get(body.Plan); err != nil {
		invalid(w, "plan", "plan is free, solo, pro or scale.")
		return
	}
	if err := d.repo.SetPlan(r.Context(), a.ID, body.Plan); err != nil {
		d.internal(w, "dev_plan", err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]string{"plan": body.Plan})
}
