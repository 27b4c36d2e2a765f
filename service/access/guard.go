package access

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"

	"github.com/emojisearch/emojisearch/service/httpx"
)

// Limiter is one Rate Limiting binding: Allow counts a call for key and
// reports whether it is within the limit (the binding's limit({key}) →
// {success}).
type Limiter interface {
	Allow(ctx context.Context, key string) (bool, error)
}

// Guard admits calls to the /v1 routes: it resolves the caller, applies
// the rate limits and answers refusals. It is a value; each With… returns
// a copy, so one base Guard can serve routes with different rules.
type Guard struct {
	res        *Resolver
	keyed      Limiter // RL_KEYED: 120/min per key and IP
	anon       Limiter // RL_ANON: 30/min per IP
	requireKey bool
	writeErr   func(http.ResponseWriter, *http.Request, *Error)
	onError    func(error)
}

// NewGuard returns a Guard for the metered routes (anonymous calls
// allowed). A nil limiter applies no limit (a binding that is not bound).
func NewGuard(res *Resolver, keyed, anon Limiter) Guard {
	return Guard{res: res, keyed: keyed, anon: anon, writeErr: writeError}
}

// WithRequireKey refuses callers without a key with 401 (custom pack,
// tenants API). Callers served as anonymous because the key store failed
// still reach the handler, which answers as its route's spec says for an
// unreadable database.
func (g Guard) WithRequireKey() Guard {
	g.requireKey = true
	return g
}

// WithErrorWriter replaces how refusals are written (the tenants API has
// its own error shape). Retry-After is already set on a 429.
func (g Guard) WithErrorWriter(fn func(http.ResponseWriter, *http.Request, *Error)) Guard {
	g.writeErr = fn
	return g
}

// WithErrorHook is told about failures that were absorbed (a rate limiter
// that failed open), for metrics. The errors carry no key or IP.
func (g Guard) WithErrorHook(fn func(error)) Guard {
	g.onError = fn
	return g
}

// Admit resolves the caller of r and applies the rate limit. A refusal is
// a *Error.
func (g Guard) Admit(r *http.Request) (Caller, error) {
	c, err := g.res.Resolve(r)
	if err != nil {
		return Caller{}, err
	}
	if g.requireKey && c.Anonymous && c.AnonReason == AnonNoKey {
		return Caller{}, ErrKeyRequired
	}
	lim, key, refusal := g.anon, ClientIP(r), ErrRateLimitedAnon
	if !c.Anonymous {
		lim, key, refusal = g.keyed, c.KeyID+":"+key, ErrRateLimitedKeyed
	}
	if lim == nil {
		return c, nil
	}
	ok, err := lim.Allow(r.Context(), key)
	if err != nil {
		// Fail open: a broken binding must not take the service down.
		if g.onError != nil {
			g.onError(err)
		}
		return c, nil
	}
	if !ok {
		return Caller{}, refusal
	}
	return c, nil
}

// Wrap calls next with the caller in the request context, or answers the
// refusal.
func (g Guard) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := g.Admit(r)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				e = &Error{Status: http.StatusInternalServerError, Code: "internal", Message: "internal error"}
			}
			if e.Status == http.StatusTooManyRequests {
				w.Header().Set("Retry-After", strconv.Itoa(RetryAfterSeconds))
			}
			g.writeErr(w, r, e)
			return
		}
		next.ServeHTTP(w, r.WithContext(WithCaller(r.Context(), c)))
	})
}

func writeError(w http.ResponseWriter, _ *http.Request, e *Error) {
	httpx.Error(w, e.Status, e.Message)
}

// ClientIP is the address rate limits count by: CF-Connecting-IP, else
// the host of RemoteAddr, else "unknown" (see the package doc).
func ClientIP(r *http.Request) string {
	if a, err := netip.ParseAddr(strings.TrimSpace(r.Header.Get("CF-Connecting-IP"))); err == nil {
		return a.Unmap().String()
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if a, err := netip.ParseAddr(host); err == nil {
		return a.Unmap().String()
	}
	return "unknown"
}
