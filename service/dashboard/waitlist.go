package dashboard

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"net/mail"
	"net/url"
	"slices"
	"strings"

	"github.com/emojisearch/emojisearch/service/access"
	"github.com/emojisearch/emojisearch/service/accounts"
	"github.com/emojisearch/emojisearch/service/httpx"
	"github.com/emojisearch/emojisearch/service/plans"
)

// maxEmail is the longest address RFC 5321 allows in a path.
const maxEmail = 254

// validEmail trims an address and reports whether it is a plain address
// (no display name, no angle brackets).
func validEmail(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > maxEmail {
		return "", false
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" {
		return "", false
	}
	return s, true
}

// waitlist is the public POST /api/waitlist (spec 2, Waitlist route rules).
func (d *Dashboard) waitlist(w http.ResponseWriter, r *http.Request) {
	site, ok := d.website(r)
	if !ok {
		Fail(w, http.StatusForbidden, Error{Code: "forbidden_origin", Message: "This origin may not post the waitlist form."})
		return
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	isForm := mt == "application/x-www-form-urlencoded"
	jsonAnswer := !isForm || acceptsJSON(r)
	// refuse answers an error as JSON, or as a redirect for a form.
	refuse := func(status int, e Error) {
		if jsonAnswer {
			if status == http.StatusTooManyRequests {
				w.Header().Set("Retry-After", "60")
			}
			Fail(w, status, e)
			return
		}
		d.redirect(w, site, url.Values{"waitlist": {"error"}, "reason": {e.Code}}, "waitlist-error")
	}
	if allowed, err := d.cfg.limiter.Allow(r.Context(), "waitlist:"+access.ClientIP(r)); err != nil {
		d.cfg.logf("dashboard: waitlist limiter failed: %s", errorKind(err))
	} else if !allowed {
		refuse(http.StatusTooManyRequests, Error{Code: "rate_limited", Message: "Too many sign-ups from this address; try again in a minute."})
		return
	}
	var email, plan string
	switch {
	case isForm:
		data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			refuse(http.StatusRequestEntityTooLarge, Error{Code: "body_too_large", Message: "The form is larger than 16 KB."})
			return
		}
		form, perr := url.ParseQuery(string(data))
		if err != nil || perr != nil {
			refuse(http.StatusBadRequest, Error{Code: "invalid_request", Message: "The form could not be read."})
			return
		}
		email, plan = form.Get("email"), form.Get("plan")
	case mt == "application/json":
		var body struct {
			Email string `json:"email"`
			Plan  string `json:"plan"`
		}
		if !DecodeJSON(w, r, &body) {
			return
		}
		email, plan = body.Email, body.Plan
	default:
		Fail(w, http.StatusUnsupportedMediaType, Error{Code: "unsupported_media_type",
			Message: "Send the form as application/x-www-form-urlencoded or application/json."})
		return
	}
	email, ok = validEmail(email)
	if !ok {
		refuse(http.StatusBadRequest, Error{Code: "invalid_request", Field: "email", Message: "Give a valid email address."})
		return
	}
	if plan == "" {
		plan = plans.Pro
	}
	if l, err := plans.Get(plan); err != nil || l.Name == plans.Free {
		refuse(http.StatusBadRequest, Error{Code: "invalid_request", Field: "plan", Message: "plan must be solo, pro or scale."})
		return
	}
	if err := d.repo.JoinWaitlist(r.Context(), accounts.WaitlistEntry{Email: email, Plan: plan, Source: accounts.SourceWebsite}); err != nil {
		if jsonAnswer {
			d.internal(w, "waitlist", err)
			return
		}
		d.cfg.logf("dashboard: waitlist failed: %s", errorKind(err))
		d.redirect(w, site, url.Values{"waitlist": {"error"}, "reason": {"internal_error"}}, "waitlist-error")
		return
	}
	if jsonAnswer {
		httpx.JSON(w, http.StatusOK, map[string]string{"status": "waitlist", "plan": plan})
		return
	}
	d.redirect(w, site, url.Values{"waitlist": {"ok"}}, "waitlist-ok")
}

// website is the site a waitlist post came from: its Origin when that is
// an allowed website, the first allowed website without an Origin; false
// for any other origin.
func (d *Dashboard) website(r *http.Request) (string, bool) {
	values := r.Header.Values("Origin")
	if len(values) == 0 {
		return d.websites[0], true
	}
	o, ok := access.NormalizeOrigin(values[0])
	if len(values) != 1 || !ok || !slices.Contains(d.websites, o) {
		return "", false
	}
	return o, true
}

func acceptsJSON(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept") {
		for _, part := range strings.Split(v, ",") {
			mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err == nil && mt == "application/json" {
				return true
			}
		}
	}
	return false
}

// redirect answers 303 to the website's waitlist page with the marker in
// the query and the fragment.
func (d *Dashboard) redirect(w http.ResponseWriter, site string, q url.Values, fragment string) {
	w.Header().Set("Location", site+d.cfg.waitlistPath+"?"+q.Encode()+"#"+fragment)
	w.WriteHeader(http.StatusSeeOther)
}
