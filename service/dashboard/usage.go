package dashboard

import (
	"math"
	"net/http"
	"time"

	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/analytics"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/plans"
)

// Usage status values (see the package doc).
const (
	StatusOK      = "ok"
	StatusWarning = "warning"
	StatusOver    = "over"
)

// WarningPercent is where a metric turns from ok to warning (the first
// usage.threshold of spec 2).
const WarningPercent = 80

type metricJSON struct {
	Used    int64    `json:"used"`
	Limit   *int64   `json:"limit"`
	Percent *float64 `json:"percent"`
	Status  string   `json:"status"`
	AppUsed int64    `json:"appUsed"`
}

// metricUsage rates used against a limit (plans.Unlimited or below: none).
func metricUsage(used, appUsed, limit int64) metricJSON {
	m := metricJSON{Used: used, AppUsed: appUsed, Status: StatusOK}
	if limit < 0 {
		return m
	}
	m.Limit = &limit
	var pct float64
	switch {
	case limit > 0:
		pct = math.Floor(float64(used)*1000/float64(limit)) / 10
	case used > 0:
		pct = 100
	}
	m.Percent = &pct
	switch {
	case (limit > 0 && used >= limit) || (limit == 0 && used > 0):
		m.Status = StatusOver
	case pct >= WarningPercent:
		m.Status = StatusWarning
	}
	return m
}

// isPeriod reports whether p is a month, YYYY-MM (time.Parse keeps
// regexp, about 40 KB gzip, out of the Worker).
func isPeriod(p string) bool {
	_, err := time.Parse("2006-01", p)
	return err == nil && len(p) == len("2006-01")
}

// period reads ?period=YYYY-MM, the current UTC month by default.
func (d *Dashboard) period(w http.ResponseWriter, r *http.Request) (string, bool) {
	p := r.URL.Query().Get("period")
	if p == "" {
		return accounts.Period(d.cfg.now()), true
	}
	if !isPeriod(p) {
		invalid(w, "period", "period must be a month, YYYY-MM.")
		return "", false
	}
	return p, true
}

func (d *Dashboard) appUsage(w http.ResponseWriter, r *http.Request) {
	e, ok := d.appRoute(w, r, accounts.RoleViewer)
	if !ok {
		return
	}
	period, ok := d.period(w, r)
	if !ok {
		return
	}
	u, err := d.repo.UsageOf(r.Context(), e.AccountID, e.ID, period)
	if err != nil {
		d.internal(w, "usage", err)
		return
	}
	limits := limitsOfPlan(e.OwnerPlan)
	out := map[string]metricJSON{}
	for _, m := range accounts.Metrics {
		limit, _ := limits.Monthly(m)
		out[m] = metricUsage(u[m].Account, u[m].App, limit)
	}
	days, err := d.usageDays(r, e.ID, period)
	if err != nil {
		d.internal(w, "usage", err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"appId": e.ID, "period": period, "plan": limits.Name, "usage": out, "days": days})
}

// usageDays is the app's keyed searches per UTC day of period, up to today
// (the dashboard's daily chart): the search analytics' day totals, which
// count every keyed search and are kept 7 days on Free and Solo.
func (d *Dashboard) usageDays(r *http.Request, appID, period string) ([]analytics.DayCount, error) {
	first, _ := time.Parse("2006-01", period)
	last := first.AddDate(0, 1, -1)
	if now := d.cfg.now().UTC(); now.Before(last) {
		last = now
	}
	if last.Before(first) {
		return []analytics.DayCount{}, nil
	}
	return analytics.NewStore(d.cfg.db).Days(r.Context(), appID, first, last)
}

func (d *Dashboard) billing(w http.ResponseWriter, r *http.Request) {
	a, _, ok := d.Caller(w, r)
	if !ok {
		return
	}
	ta, ok := d.TeamFor(w, r, a, accounts.RoleAdmin)
	if !ok {
		return
	}
	ctx := r.Context()
	period := accounts.Period(d.cfg.now())
	u, err := d.repo.UsageOf(ctx, ta.Owner.ID, "", period)
	if err != nil {
		d.internal(w, "billing", err)
		return
	}
	n, err := d.repo.AppCount(ctx, ta.Owner.ID)
	if err != nil {
		d.internal(w, "billing", err)
		return
	}
	wp, err := d.repo.WaitlistPlan(ctx, ta.Owner)
	if err != nil {
		d.internal(w, "billing", err)
		return
	}
	l := ta.Owner.Limits()
	usage := map[string]int64{}
	limits := map[string]any{"maxApps": l.MaxApps}
	for _, m := range accounts.Metrics {
		usage[m] = u[m].Account
		if v, _ := l.Monthly(m); v >= 0 {
			limits[m] = v
		} else {
			limits[m] = nil
		}
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"plan": l.Name, "period": period, "usage": usage, "limits": limits,
		"appCount": n, "provider": nil, "waitlistPlan": optional(wp)})
}

// upgrade records a waitlist request for a higher plan; it never charges
// and never changes the plan.
func (d *Dashboard) upgrade(w http.ResponseWriter, r *http.Request) {
	a, _, ok := d.Caller(w, r)
	if !ok {
		return
	}
	ta, ok := d.TeamFor(w, r, a, accounts.RoleOwner)
	if !ok {
		return
	}
	var body struct {
		Plan  string  `json:"plan"`
		Email *string `json:"email"`
	}
	if !DecodeJSON(w, r, &body) {
		return
	}
	// A known plan that is not above the current one (free included: it
	// is never above any plan) is a conflict with the account's state,
	// not bad input: spec 2 answers it 409 plan_not_higher.
	target, err := plans.Get(body.Plan)
	if err != nil {
		invalid(w, "plan", "plan must be solo, pro or scale.")
		return
	}
	current := ta.Owner.Limits()
	if target.Rank <= current.Rank {
		Fail(w, http.StatusConflict, Error{Code: "plan_not_higher",
			Message: "The account is on the " + current.Name + " plan already; choose a higher plan."})
		return
	}
	email := ta.Owner.EmailOrEmpty()
	if body.Email != nil {
		email = *body.Email
	}
	email, ok = validEmail(email)
	if !ok {
		invalid(w, "email", "Give an email address to be told when the plan opens.")
		return
	}
	if err := d.repo.JoinWaitlist(r.Context(), accounts.WaitlistEntry{Email: email, Plan: target.Name,
		Source: accounts.SourceUpgrade, AccountID: ta.Owner.ID}); err != nil {
		d.internal(w, "upgrade", err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]string{"status": "waitlist", "plan": target.Name})
}
