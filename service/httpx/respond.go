package httpx

import (
	"encoding/json"
	"net"
	"net/http"
	"strings"
)

// ContentTypeJSON is the content type of every JSON answer (spec 1, Conventions).
const ContentTypeJSON = "application/json; charset=utf-8"

// JSON writes v with the given status and the shared JSON conventions.
func JSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status, body = http.StatusInternalServerError, []byte(`{"error":"internal error"}`)
	}
	h := w.Header()
	h.Set("Content-Type", ContentTypeJSON)
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// Error writes the search service's error shape `{"error": message}`, never
// cached (spec 1, Conventions).
func Error(w http.ResponseWriter, status int, message string) {
	w.Header().Set("Cache-Control", "no-store")
	JSON(w, status, map[string]string{"error": message})
}

// CORS adds `Access-Control-Allow-Origin: *` to every answer: the search
// service is called from any website and keys, not origins, gate access.
func CORS(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		next.ServeHTTP(w, r)
	})
}

// HTTPSOnly refuses plain http to the hosted service with 403, keeping
// plain http for local development hosts (spec 1, Conventions).
func HTTPSOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Scheme == "http" && !IsLocalHost(r.URL.Hostname()) {
			Error(w, http.StatusForbidden, "This API is served over HTTPS only: use https://"+r.URL.Host+r.URL.RequestURI())
			return
		}
		next.ServeHTTP(w, r)
	})
}

// IsLocalHost reports whether host names this machine: localhost (and its
// subdomains) or a loopback address.
func IsLocalHost(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// Preflight answers a CORS preflight for a route allowing methods.
func Preflight(allow []string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Access-Control-Allow-Methods", strings.Join(allow, ", "))
		h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Image-Hash")
		h.Set("Access-Control-Max-Age", "86400")
		h.Set("Allow", strings.Join(allow, ", "))
		w.WriteHeader(http.StatusNoContent)
	})
}

// MethodNotAllowed answers 405 naming the allowed methods in `Allow`.
func MethodNotAllowed(allow []string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		Error(w, http.StatusMethodNotAllowed, "Method "+r.Method+" is not allowed here; use "+strings.Join(allow, " or "))
	})
}

// NotFound answers 404 in the error shape.
func NotFound() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		Error(w, http.StatusNotFound, "No such route: "+r.URL.Path)
	})
}
