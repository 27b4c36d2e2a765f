package cache

import (
	"net/url"
	"strings"
)

// Error is a Cache API call workerd refuses with a TypeError. Message is the
// exact text JS code sees in err.message. Match it with errors.As.
type Error struct {
	Message string
}

func (e *Error) Error() string { return "cache: " + e.Message }

func typeError(msg string) *Error { return &Error{Message: msg} }

func validateName(name string) error {
	if len(name) >= MaxNameLength {
		return typeError(msgNameTooLong)
	}
	return nil
}

// validateURL wants an absolute http(s)-style URL with a host: the cache key.
func validateURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return typeError(msgInvalidURL)
	}
	return nil
}

func isGET(method string) bool { return method == "" || strings.EqualFold(method, "GET") }

// validatePut applies workerd's checks of cache.put, in its order.
func validatePut(req Request, resp Response) error {
	if !isGET(req.Method) {
		return typeError(msgNonGET)
	}
	if resp.Status == 206 {
		return typeError(msgPartial)
	}
	if strings.Contains(strings.Join(resp.Header.Values("Vary"), ","), "*") {
		return typeError(msgVaryStar)
	}
	return validateURL(req.URL)
}
