package webhooks

import (
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/dashboard"
	"github.com/emojisearch/emojisearch/service/events"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/plans"
	"github.com/emojisearch/emojisearch/service/webhookurl"
)

// APIRoutes are the webhook routes, for the dashboard's /api table
// (dashboard.Routes applies the /api conventions).
func (s *Service) APIRoutes(d *dashboard.Dashboard) []dashboard.Route {
	h := handlers{s: s, d: d}
	return []dashboard.Route{
		{Pattern: "/api/apps/:id/webhooks", Methods: map[string]http.HandlerFunc{http.MethodGet: h.list, http.MethodPost: h.create}},
		{Pattern: "/api/webhooks/:id", Methods: map[string]http.HandlerFunc{http.MethodPatch: h.patch, http.MethodDelete: h.remove}},
		{Pattern: "/api/webhooks/:id/test", Methods: map[string]http.HandlerFunc{http.MethodPost: h.test}},
		{Pattern: "/api/webhooks/:id/deliveries", Methods: map[string]http.HandlerFunc{http.MethodGet: h.deliveries}},
	}
}

type handlers struct {
	s *Service
	d *dashboard.Dashboard
}

var errNotFound = dashboard.Error{Code: "not_found", Message: "Not found."}

// app authenticates the caller and checks the role, then the Scale plan.
func (h handlers) app(w http.ResponseWriter, r *http.Request, appID, min string) bool {
	caller, _, ok := h.d.Caller(w, r)
	return ok && h.appOf(w, r, caller, appID, min)
}

func (h handlers) appOf(w http.ResponseWriter, r *http.Request, caller accounts.Account, appID, min string) bool {
	e, ok := h.d.AppFor(w, r, appID, caller, min)
	if !ok {
		return false
	}
	if lim, err := plans.Get(e.OwnerPlan); err != nil || !lim.Webhooks {
		dashboard.Fail(w, http.StatusPaymentRequired, dashboard.Error{Code: "plan_required",
			Message: "Webhooks need the Scale plan.", Plan: plans.Scale})
		return false
	}
	return true
}

// hook finds the webhook of the path and checks access to its app; no
// webhook answers like no access (404).
func (h handlers) hook(w http.ResponseWriter, r *http.Request, min string) (row, bool) {
	caller, _, ok := h.d.Caller(w, r)
	if !ok {
		return row{}, false
	}
	wh, err := h.s.get(r.Context(), httpx.Param(r, "id"))
	if errors.Is(err, accounts.ErrNotFound) {
		dashboard.Fail(w, http.StatusNotFound, errNotFound)
		return row{}, false
	}
	if err != nil {
		h.internal(w, "get_webhook", err)
		return row{}, false
	}
	return wh, h.appOf(w, r, caller, wh.AppID, min)
}

func (h handlers) internal(w http.ResponseWriter, event string, err error) {
	h.s.cfg.logf("webhooks: %s failed: %T", event, err)
	dashboard.Fail(w, http.StatusInternalServerError, dashboard.Error{Code: "internal_error", Message: "Something went wrong; try again."})
}

func invalid(w http.ResponseWriter, field, msg string) {
	dashboard.Fail(w, http.StatusBadRequest, dashboard.Error{Code: "invalid_request", Message: msg, Field: field})
}

// checkURL answers 400 for a URL the rules refuse and returns its
// canonical form.
func (h handlers) checkURL(w http.ResponseWriter, raw string) (string, bool) {
	u, err := webhookurl.Check(raw, webhookurl.Options{Development: h.s.cfg.dev})
	if err != nil {
		invalid(w, "url", "The URL must be https and name a public host, without a user name or password.")
		return "", false
	}
	return u, true
}

// checkEvents answers 400 unless every type is subscribable; the list is
// deduplicated in spec order.
func checkEvents(w http.ResponseWriter, types []string) ([]string, bool) {
	if len(types) == 0 {
		invalid(w, "events", "Subscribe to at least one event type.")
		return nil, false
	}
	var out []string
	for _, t := range events.Subscribable {
		if slices.Contains(types, t) {
			out = append(out, t)
		}
	}
	for _, t := range types {
		if !slices.Contains(events.Subscribable, t) {
			invalid(w, "events", "Unknown event type; use "+strings.Join(events.Subscribable, ", ")+".")
			return nil, false
		}
	}
	return out, true
}

func (h handlers) list(w http.ResponseWriter, r *http.Request) {
	appID := httpx.Param(r, "id")
	if !h.app(w, r, appID, accounts.RoleViewer) {
		return
	}
	list, err := h.s.list(r.Context(), appID)
	if err != nil {
		h.internal(w, "list_webhooks", err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"webhooks": list})
}

func (h handlers) create(w http.ResponseWriter, r *http.Request) {
	appID := httpx.Param(r, "id")
	if !h.app(w, r, appID, accounts.RoleDeveloper) {
		return
	}
	var body struct {
		URL    *string   `json:"url"`
		Events *[]string `json:"events"`
	}
	if !dashboard.DecodeJSON(w, r, &body) {
		return
	}
	if body.URL == nil {
		invalid(w, "url", "url is required.")
		return
	}
	u, ok := h.checkURL(w, *body.URL)
	if !ok {
		return
	}
	types := events.Subscribable
	if body.Events != nil {
		if types, ok = checkEvents(w, *body.Events); !ok {
			return
		}
	}
	wh, err := h.s.create(r.Context(), appID, u, types)
	if errors.Is(err, errLimit) {
		dashboard.Fail(w, http.StatusConflict, dashboard.Error{Code: "webhook_limit", Message: "An app has at most 10 webhooks."})
		return
	}
	if err != nil {
		h.internal(w, "create_webhook", err)
		return
	}
	httpx.JSON(w, http.StatusCreated, map[string]any{"webhook": wh.api(), "secret": wh.Secret})
}

func (h handlers) patch(w http.ResponseWriter, r *http.Request) {
	wh, ok := h.hook(w, r, accounts.RoleDeveloper)
	if !ok {
		return
	}
	var body struct {
		URL     *string   `json:"url"`
		Events  *[]string `json:"events"`
		Enabled *bool     `json:"enabled"`
	}
	if !dashboard.DecodeJSON(w, r, &body) {
		return
	}
	var types []string
	if body.URL != nil {
		u, ok := h.checkURL(w, *body.URL)
		if !ok {
			return
		}
		body.URL = &u
	}
	if body.Events != nil {
		if types, ok = checkEvents(w, *body.Events); !ok {
			return
		}
	}
	wh, err := h.s.update(r.Context(), wh, body.URL, types, body.Enabled)
	if err != nil {
		h.internal(w, "update_webhook", err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"webhook": wh.api()})
}

func (h handlers) remove(w http.ResponseWriter, r *http.Request) {
	wh, ok := h.hook(w, r, accounts.RoleDeveloper)
	if !ok {
		return
	}
	if err := h.s.remove(r.Context(), wh.ID); err != nil {
		h.internal(w, "delete_webhook", err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (h handlers) test(w http.ResponseWriter, r *http.Request) {
	wh, ok := h.hook(w, r, accounts.RoleDeveloper)
	if !ok {
		return
	}
	d, err := h.s.test(r.Context(), wh)
	if err != nil {
		h.internal(w, "test_webhook", err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"delivery": d})
}

func (h handlers) deliveries(w http.ResponseWriter, r *http.Request) {
	wh, ok := h.hook(w, r, accounts.RoleViewer)
	if !ok {
		return
	}
	list, err := h.s.deliveries(r.Context(), wh.ID)
	if err != nil {
		h.internal(w, "list_deliveries", err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"deliveries": list})
}
