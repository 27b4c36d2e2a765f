//go:build !js

package dashboard

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/service/store"
)

const form = "application/x-www-form-urlencoded"

func TestWaitlist(t *testing.T) {
	cases := []struct {
		name     string
		origin   string
		ctype    string
		accept   string
		body     any
		status   int
		location string // for 303
		code     string // for JSON errors
		plan     string // stored plan on success
	}{
		{"form from the website", site, form, "", "email=Ann%40X.io&plan=scale", http.StatusSeeOther,
			site + "/waitlist?waitlist=ok#waitlist-ok", "", "scale"},
		{"form from the second website", "https://www.emojisearch.example", form, "text/html", "email=ann@x.io", http.StatusSeeOther,
			"https://www.emojisearch.example/waitlist?waitlist=ok#waitlist-ok", "", "pro"},
		{"form without Origin goes to the first website", "", form, "", "email=ann@x.io", http.StatusSeeOther,
			site + "/waitlist?waitlist=ok#waitlist-ok", "", "pro"},
		{"form with a bad email", site, form, "", "email=nope", http.StatusSeeOther,
			site + "/waitlist?reason=invalid_request&waitlist=error#waitlist-error", "", ""},
		{"form with plan free", site, form, "", "email=ann@x.io&plan=free", http.StatusSeeOther,
			site + "/waitlist?reason=invalid_request&waitlist=error#waitlist-error", "", ""},
		{"form asking for JSON", site, form, "application/json", "email=ann@x.io", http.StatusOK, "", "", "pro"},
		{"JSON", site, "application/json", "", map[string]any{"email": "ann@x.io", "plan": "solo"}, http.StatusOK, "", "", "solo"},
		{"JSON with a bad plan", site, "application/json", "", map[string]any{"email": "ann@x.io", "plan": "gold"},
			http.StatusBadRequest, "", "invalid_request", ""},
		{"JSON with an email with a name", "", "application/json", "", map[string]any{"email": "Ann <ann@x.io>"},
			http.StatusBadRequest, "", "invalid_request", ""},
		{"other origin", "https://evil.example", form, "", "email=ann@x.io", http.StatusForbidden, "", "forbidden_origin", ""},
		{"origin null", "null", form, "", "email=ann@x.io", http.StatusForbidden, "", "forbidden_origin", ""},
		{"plain text", site, "text/plain", "", "email=ann@x.io", http.StatusUnsupportedMediaType, "", "unsupported_media_type", ""},
		{"malformed JSON", site, "application/json", "", `{"email":`, http.StatusBadRequest, "", "invalid_json", ""},
		{"oversized form", site, form, "", "email=ann@x.io&x=" + strings.Repeat("a", MaxBody), http.StatusSeeOther,
			site + "/waitlist?reason=body_too_large&waitlist=error#waitlist-error", "", ""},
		{"SQL in the email", site, "application/json", "", map[string]any{"email": "o'brien--%'or'1'='1@x.io"}, http.StatusOK, "", "", "pro"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			h := map[string]string{}
			if c.origin != "" {
				h["Origin"] = c.origin
			}
			if c.accept != "" {
				h["Accept"] = c.accept
			}
			r := e.do(req{method: "POST", path: "/api/waitlist", body: c.body, contentType: c.ctype, header: h})
			require.Equal(t, c.status, r.Code, r.Body.String())
			if c.location != "" {
				assert.Equal(t, c.location, r.Header().Get("Location"))
			}
			if c.code != "" {
				assert.Equal(t, c.code, r.errCode())
			}
			if c.plan == "" {
				assert.Zero(t, e.count("SELECT count(*) AS n FROM waitlist"))
				return
			}
			if r.Code == http.StatusOK {
				assert.Equal(t, map[string]any{"status": "waitlist", "plan": c.plan}, r.json())
			}
			row, err := e.db.First(bg, store.Q("SELECT email, plan, source FROM waitlist"))
			require.NoError(t, err)
			plan, _ := row.String("plan")
			assert.Equal(t, c.plan, plan)
			email, _ := row.String("email")
			assert.NotContains(t, email, "A", "emails are stored in lower case")
			src, _ := row.String("source")
			assert.Equal(t, "website", src)
		})
	}
}

func TestWaitlistRateLimit(t *testing.T) {
	e := newEnv(t)
	post := func(ip string, jsonBody bool) resp {
		q := req{method: "POST", path: "/api/waitlist", header: map[string]string{"Origin": site, "CF-Connecting-IP": ip}}
		if jsonBody {
			q.body = map[string]any{"email": "a@x.io"}
		} else {
			q.body, q.contentType = "email=a@x.io", form
		}
		return e.do(q)
	}
	for i := range 5 {
		asJSON := i%2 == 0
		want := http.StatusSeeOther
		if asJSON {
			want = http.StatusOK
		}
		assert.Equal(t, want, post("203.0.113.1", asJSON).Code, i)
	}
	r := post("203.0.113.1", false)
	assert.Equal(t, http.StatusSeeOther, r.Code)
	loc, err := url.Parse(r.Header().Get("Location"))
	require.NoError(t, err)
	assert.Equal(t, "rate_limited", loc.Query().Get("reason"))
	assert.Equal(t, "waitlist-error", loc.Fragment)
	r = post("203.0.113.1", true)
	assert.Equal(t, http.StatusTooManyRequests, r.Code)
	assert.Equal(t, "rate_limited", r.errCode())
	assert.Equal(t, "60", r.Header().Get("Retry-After"))
	assert.Equal(t, http.StatusSeeOther, post("203.0.113.2", false).Code, "another address has its own budget")
	e.clock.add(time.Minute)
	assert.Equal(t, http.StatusSeeOther, post("203.0.113.1", false).Code, "a minute later")

	// A limiter that fails lets posts through and logs no address or email.
	e.limiter.err = errors.New("binding down 203.0.113.1")
	assert.Equal(t, http.StatusOK, post("203.0.113.1", true).Code)
	for _, l := range e.logs {
		assert.NotContains(t, l, "203.0.113.1")
		assert.NotContains(t, l, "a@x.io")
	}
}
