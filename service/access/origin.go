package access

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// checkOrigin applies a publishable key's allowed origins to r.
func checkOrigin(r *http.Request, rec KeyRecord) error {
	if len(rec.AllowedOrigins) == 0 {
		if rec.AppEnvironment == EnvDevelopment {
			return nil // any origin, or none: development apps only
		}
		return ErrNoAllowedOrigins
	}
	values := r.Header.Values("Origin")
	if len(values) == 0 {
		return ErrOriginRequired
	}
	origin, ok := NormalizeOrigin(values[0])
	if len(values) != 1 || !ok {
		return ErrOriginNotAllowed
	}
	if slices.ContainsFunc(rec.AllowedOrigins, func(a string) bool {
		n, ok := NormalizeOrigin(a)
		return ok && n == origin
	}) {
		return nil
	}
	return ErrOriginNotAllowed
}

// NormalizeOrigin returns origin as "scheme://host[:port]", lowercased,
// without the scheme's default port; false when it is not such an origin
// (a path other than "/", a query, user info, "null", no host). The
// dashboard can use it to check origins before it stores them.
func NormalizeOrigin(origin string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(origin))
	if err != nil || u.Scheme == "" || u.Host == "" || u.Opaque != "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		return scheme + "://" + host + ":" + port, true
	}
	return scheme + "://" + host, true
}
