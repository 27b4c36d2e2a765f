package dashboard

import (
	"net/http"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/analytics"
	"github.com/emojisearch/emojisearch/service/httpx"
)

// appAnalytics answers GET /api/apps/:id/analytics?days=7|30|90 (spec 2,
// Analytics rules): viewer+ of an app whose owner is on Pro or Scale; the
// window is cut to the owner plan's retention.
func (d *Dashboard) appAnalytics(w http.ResponseWriter, r *http.Request) {
	e, ok := d.appRoute(w, r, accounts.RoleViewer)
	if !ok {
		return
	}
	limits := limitsOfPlan(e.OwnerPlan)
	if !limits.Analytics {
		planRequired(w, "pro", "Search analytics need the Pro or Scale plan.")
		return
	}
	days, ok := analytics.Window(r.URL.Query().Get("days"), limits)
	if !ok {
		invalid(w, "days", "days must be 7, 30 or 90.")
		return
	}
	rep, err := analytics.NewStore(d.cfg.db).Report(r.Context(), e.ID, d.cfg.now(), days)
	if err != nil {
		d.internal(w, "analytics", err)
		return
	}
	httpx.JSON(w, http.StatusOK, rep)
}
