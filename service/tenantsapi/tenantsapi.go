// Package tenantsapi serves the tenants API of spec 1 (secret key, account
// on Scale) through the one writer, service/emojistore:
//
//	GET    /v1/tenants?limit=&cursor=              {tenants: Tenant[], nextCursor}, ordered by externalId
//	POST   /v1/tenants                             JSON {externalId, name?} → 201 Tenant, or 200 the existing one (name unchanged)
//	DELETE /v1/tenants/:externalId                 {tenant, emojiDeleted}, images and rows deleted
//	GET    /v1/tenants/:externalId/emoji           {emoji: CustomEmoji[], used, limit}
//	POST   /v1/tenants/:externalId/emoji           multipart file, shortcode, aliases → 201 CustomEmoji (source api)
//	DELETE /v1/tenants/:externalId/emoji/:shortcode the deleted CustomEmoji
//
// Errors are {"error": <code>, "message", ...} with the codes of spec 1's
// tenants table, always no-store. Every request passes, in order: no
// Origin header (a browser: 403 secret_key_required), the key guard (401
// unauthorized; the guard's own 403 for a secret key in the URL; other key
// refusals answer secret_key_required), a development key (403
// development_key), a key store that could not be read (503 unavailable),
// a secret key (403 secret_key_required), the Scale plan (402
// plan_required with plan scale). Paths carry externalId and shortcode
// path-encoded; an externalId that breaks the rule is 400 invalid_request.
// nextCursor is opaque (base64url of the last externalId). The database
// failing answers 503 unavailable, the image store 503 storage_unavailable.
package tenantsapi

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/apikey"
	"github.com/emojisearch/emojisearch/service/emojistore"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/imageintake"
	"github.com/emojisearch/emojisearch/service/plans"
)

// MaxJSONBody is spec 1's tenant JSON body limit.
const MaxJSONBody = 16 << 10

// API serves the tenants API.
type API struct {
	store *emojistore.Store
	guard access.Guard
}

// New returns the API over the store, admitting callers with guard (the
// service's key guard; New makes it require a key and answer in this
// API's error shape).
func New(store *emojistore.Store, guard access.Guard) *API {
	return &API{store: store, guard: guard.WithRequireKey().WithErrorWriter(writeAccessError)}
}

// Routes registers the routes on r.
func (a *API) Routes(r *httpx.Router) {
	routes := []struct {
		pattern string
		methods map[string]handler
	}{
		{"/v1/tenants", map[string]handler{http.MethodGet: a.list, http.MethodPost: a.create}},
		{"/v1/tenants/:externalId", map[string]handler{http.MethodDelete: a.deleteTenant}},
		{"/v1/tenants/:externalId/emoji", map[string]handler{http.MethodGet: a.listEmoji, http.MethodPost: a.upload}},
		{"/v1/tenants/:externalId/emoji/:shortcode", map[string]handler{http.MethodDelete: a.deleteEmoji}},
	}
	for _, rt := range routes {
		for m, h := range rt.methods {
			r.Handle(m, rt.pattern, a.admit(h))
		}
		r.HandleOther(rt.pattern, func(allow []string) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				w.Header().Set("Allow", strings.Join(allow, ", "))
				fail(w, http.StatusMethodNotAllowed, "method_not_allowed", "Use "+strings.Join(allow, " or ")+".", nil)
			})
		})
	}
	r.HandleOther("/v1/tenants/*rest", func([]string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			fail(w, http.StatusNotFound, "not_found", "No such tenants API route.", nil)
		})
	})
}

// handler is a route handler with its admitted caller.
type handler func(w http.ResponseWriter, r *http.Request, c access.Caller)

// admit applies the checks every route shares (see the package doc).
func (a *API) admit(h handler) http.Handler {
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _ := access.FromContext(r.Context())
		switch {
		case c.Dev:
			fail(w, http.StatusForbidden, "development_key", "Development keys have no app: use a secret key of an app.", nil)
		case c.Anonymous:
			unavailable(w)
		case c.Kind != apikey.Secret:
			fail(w, http.StatusForbidden, "secret_key_required", "The tenants API needs a secret key.", nil)
		case !limitsOf(c.Plan).Tenants:
			fail(w, http.StatusPaymentRequired, "plan_required", "The tenants API needs the scale plan.", map[string]any{"plan": plans.Scale})
		default:
			h(w, r, c)
		}
	})
	guarded := a.guard.Wrap(inner)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if r.Header.Get("Origin") != "" {
			fail(w, http.StatusForbidden, "secret_key_required",
				"The tenants API is called from servers with a secret key; requests with an Origin header are refused.", nil)
			return
		}
		guarded.ServeHTTP(w, r)
	})
}

func limitsOf(plan string) plans.Limits {
	l, err := plans.Get(plan)
	if err != nil {
		l, _ = plans.Get(plans.Free)
	}
	return l
}

// writeAccessError answers the key guard's refusals in this API's shape.
func writeAccessError(w http.ResponseWriter, _ *http.Request, e *access.Error) {
	code := e.Code
	switch {
	case e.Status == http.StatusUnauthorized:
		code = "unauthorized"
	case e.Status == http.StatusForbidden && code != "secret_key_in_url":
		code = "secret_key_required"
	}
	fail(w, e.Status, code, e.Message, nil)
}

// fail writes {"error": code, "message": message, ...extra}.
func fail(w http.ResponseWriter, status int, code, message string, extra map[string]any) {
	body := map[string]any{"error": code, "message": message}
	for k, v := range extra {
		body[k] = v
	}
	w.Header().Set("Cache-Control", "no-store")
	httpx.JSON(w, status, body)
}

func invalid(w http.ResponseWriter, field, message string) {
	fail(w, http.StatusBadRequest, "invalid_request", message, map[string]any{"field": field})
}

func unavailable(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "10")
	fail(w, http.StatusServiceUnavailable, "unavailable", "The database is not reachable; try again.", nil)
}

// storeFailure answers the store's errors.
func storeFailure(w http.ResponseWriter, err error) {
	var fe *emojistore.FieldError
	switch {
	case errors.As(err, &fe):
		invalid(w, fe.Field, fe.Message)
	case errors.Is(err, emojistore.ErrTenantNotFound):
		fail(w, http.StatusNotFound, "tenant_not_found", "No tenant with this externalId.", nil)
	case errors.Is(err, emojistore.ErrNotFound):
		fail(w, http.StatusNotFound, "emoji_not_found", "The tenant has no emoji with this shortcode.", nil)
	case errors.Is(err, emojistore.ErrShortcodeTaken):
		fail(w, http.StatusConflict, "shortcode_taken", "The tenant already has this shortcode.", nil)
	case errors.Is(err, emojistore.ErrStorage):
		w.Header().Set("Retry-After", "10")
		fail(w, http.StatusServiceUnavailable, "storage_unavailable", "The image store is not reachable; nothing was changed.", nil)
	default:
		unavailable(w)
	}
}

func (a *API) list(w http.ResponseWriter, r *http.Request, c access.Caller) {
	page, err := emojistore.ParsePage(r.URL.Query())
	if err != nil {
		storeFailure(w, err)
		return
	}
	list, next, err := a.store.TenantPage(r.Context(), c.AppID, page)
	if err != nil {
		storeFailure(w, err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"tenants": list, "nextCursor": next})
}

func (a *API) create(w http.ResponseWriter, r *http.Request, c access.Caller) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		fail(w, http.StatusUnsupportedMediaType, "unsupported_media_type", "Send the body as application/json.", nil)
		return
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxJSONBody))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		fail(w, http.StatusRequestEntityTooLarge, "body_too_large", "The body is larger than 16 KB.", nil)
		return
	}
	var body struct {
		ExternalID *string `json:"externalId"`
		Name       *string `json:"name"`
	}
	if err == nil {
		err = json.Unmarshal(data, &body)
	}
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &te) && te.Field != "":
		invalid(w, te.Field, "The field "+te.Field+" has the wrong type.")
		return
	case err != nil:
		fail(w, http.StatusBadRequest, "invalid_json", "The body is not valid JSON.", nil)
		return
	case body.ExternalID == nil || !emojistore.ValidExternalID(*body.ExternalID):
		invalid(w, "externalId", "externalId is 1 to 128 characters of letters, digits and . _ ~ : @ + -")
		return
	}
	name := ""
	if body.Name != nil {
		if name, err = emojistore.TenantName(*body.Name); err != nil {
			storeFailure(w, err)
			return
		}
	}
	t, created, err := a.store.CreateTenant(r.Context(), c.AppID, *body.ExternalID, name)
	if err != nil {
		storeFailure(w, err)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	httpx.JSON(w, status, t)
}

// tenant resolves the :externalId of the path.
func (a *API) tenant(w http.ResponseWriter, r *http.Request, c access.Caller) (emojistore.Tenant, bool) {
	ext, err := url.PathUnescape(httpx.Param(r, "externalId"))
	if err != nil || !emojistore.ValidExternalID(ext) {
		invalid(w, "externalId", "externalId is 1 to 128 characters of letters, digits and . _ ~ : @ + -, path-encoded.")
		return emojistore.Tenant{}, false
	}
	t, err := a.store.TenantByExternalID(r.Context(), c.AppID, ext)
	if err != nil {
		storeFailure(w, err)
		return emojistore.Tenant{}, false
	}
	return t, true
}

func (a *API) deleteTenant(w http.ResponseWriter, r *http.Request, c access.Caller) {
	t, ok := a.tenant(w, r, c)
	if !ok {
		return
	}
	n, err := a.store.DeleteTenant(r.Context(), t)
	if err != nil {
		storeFailure(w, err)
		return
	}
	t.EmojiCount = 0
	httpx.JSON(w, http.StatusOK, map[string]any{"tenant": t, "emojiDeleted": n})
}

func limitJSON(n int64) any {
	if n == plans.Unlimited {
		return nil
	}
	return n
}

func (a *API) listEmoji(w http.ResponseWriter, r *http.Request, c access.Caller) {
	t, ok := a.tenant(w, r, c)
	if !ok {
		return
	}
	list, err := a.store.List(r.Context(), c.AppID, &t.ID)
	if err != nil {
		storeFailure(w, err)
		return
	}
	used, err := a.store.Used(r.Context(), c.AccountID)
	if err != nil {
		storeFailure(w, err)
		return
	}
	base := emojistore.BaseURL(r)
	out := make([]map[string]any, len(list))
	for i, e := range list {
		out[i] = e.View(base, true)
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"emoji": out, "used": used, "limit": limitJSON(limitsOf(c.Plan).CustomEmoji)})
}

func (a *API) upload(w http.ResponseWriter, r *http.Request, c access.Caller) {
	t, ok := a.tenant(w, r, c)
	if !ok {
		return
	}
	up, uerr := emojistore.ReadUpload(w, r, "shortcode", "aliases")
	if uerr != nil {
		var extra map[string]any
		if uerr.Field != "" {
			extra = map[string]any{"field": uerr.Field}
		}
		fail(w, uerr.Status, uerr.Code, uerr.Message, extra)
		return
	}
	shortcode, err := emojistore.NormalizeShortcode(up.Fields["shortcode"])
	if err != nil {
		storeFailure(w, err)
		return
	}
	aliases, err := emojistore.NormalizeAliases(emojistore.SplitAliases(up.Fields["aliases"]))
	if err != nil {
		storeFailure(w, err)
		return
	}
	img, err := imageintake.Check(up.File, up.FileType)
	if err != nil {
		var ie *imageintake.Error
		if !errors.As(err, &ie) {
			ie = imageintake.ErrUnsupported
		}
		fail(w, ie.Status, ie.Code, ie.Reason, map[string]any{"field": ie.Field()})
		return
	}
	limit := limitsOf(c.Plan).CustomEmoji
	e, err := a.store.Create(r.Context(), emojistore.NewEmoji{AppID: c.AppID, TenantID: t.ID, Shortcode: shortcode,
		Aliases: aliases, Source: emojistore.SourceAPI, Image: up.File, Checked: img, Limit: limit, Base: emojistore.BaseURL(r)})
	var le *emojistore.LimitError
	if errors.As(err, &le) {
		fail(w, http.StatusForbidden, "plan_limit", "The account has reached its custom emoji limit.",
			map[string]any{"used": le.Used, "limit": le.Limit})
		return
	}
	if err != nil {
		storeFailure(w, err)
		return
	}
	httpx.JSON(w, http.StatusCreated, e.View(emojistore.BaseURL(r), true))
}

func (a *API) deleteEmoji(w http.ResponseWriter, r *http.Request, c access.Caller) {
	t, ok := a.tenant(w, r, c)
	if !ok {
		return
	}
	raw, err := url.PathUnescape(httpx.Param(r, "shortcode"))
	sc, nerr := emojistore.NormalizeShortcode(raw)
	if err != nil || nerr != nil {
		storeFailure(w, emojistore.ErrNotFound)
		return
	}
	e, err := a.store.ByShortcode(r.Context(), c.AppID, t.ID, sc)
	if err == nil {
		e, err = a.store.Delete(r.Context(), e, emojistore.BaseURL(r))
	}
	if err != nil {
		storeFailure(w, err)
		return
	}
	httpx.JSON(w, http.StatusOK, e.View(emojistore.BaseURL(r), true))
}
