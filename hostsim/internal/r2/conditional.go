package r2

import (
	"net/http"
	"strings"
	"time"
)

// ETag is one entry of an onlyIf ETag list: a value compared strongly or
// weakly, or the wildcard "*" that matches any object.
type ETag struct {
	Value    string
	Weak     bool
	Wildcard bool
}

// Conditional is R2's onlyIf (R2Conditional). Nil lists and times are unset.
type Conditional struct {
	// ETagMatches is If-Match: the object's ETag must be one of these
	// (strong comparison, so weak entries never match).
	ETagMatches []ETag
	// ETagDoesNotMatch is If-None-Match: the ETag must be none of these
	// (weak comparison).
	ETagDoesNotMatch []ETag
	// UploadedBefore is If-Unmodified-Since.
	UploadedBefore *time.Time
	// UploadedAfter is If-Modified-Since.
	UploadedAfter *time.Time
	// SecondsGranularity compares times truncated to whole seconds, as HTTP
	// dates are; ParseConditionalHeaders sets it.
	SecondsGranularity bool
}

// ConditionalETag builds the one-entry list for the object form of onlyIf
// (`{etagMatches: "abc"}`): "*" is the wildcard, anything else a strong ETag.
// workerd refuses a quoted value with a TypeError.
func ConditionalETag(value string) ([]ETag, error) {
	if strings.HasPrefix(value, `"`) && strings.HasSuffix(value, `"`) {
		return nil, runtimeError(jsTypeError, msgQuotedETag, value)
	}
	if value == "*" {
		return []ETag{{Wildcard: true}}, nil
	}
	return []ETag{{Value: value}}, nil
}

// ParseConditionalHeaders reads If-Match, If-None-Match, If-Modified-Since
// and If-Unmodified-Since the way workerd does when onlyIf is a Headers
// object, with second granularity. It returns nil when none is present.
func ParseConditionalHeaders(h http.Header) (*Conditional, error) {
	c := &Conditional{SecondsGranularity: true}
	var err error
	if v, ok := headerValue(h, "If-Match"); ok {
		if c.ETagMatches, err = parseETagHeader(v); err != nil {
			return nil, err
		}
	}
	if v, ok := headerValue(h, "If-None-Match"); ok {
		if c.ETagDoesNotMatch, err = parseETagHeader(v); err != nil {
			return nil, err
		}
	}
	if c.UploadedAfter, err = headerDate(h, "If-Modified-Since"); err != nil {
		return nil, err
	}
	if c.UploadedBefore, err = headerDate(h, "If-Unmodified-Since"); err != nil {
		return nil, err
	}
	if c.ETagMatches == nil && c.ETagDoesNotMatch == nil && c.UploadedAfter == nil && c.UploadedBefore == nil {
		return nil, nil
	}
	return c, nil
}

// headerValue joins repeated fields with ", " as Headers.get does.
func headerValue(h http.Header, name string) (string, bool) {
	vs := h.Values(name)
	if len(vs) == 0 {
		return "", false
	}
	return strings.Join(vs, ", "), true
}

func headerDate(h http.Header, name string) (*time.Time, error) {
	v, ok := headerValue(h, name)
	if !ok {
		return nil, nil
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return nil, runtimeError(jsTypeError, msgBadDate, name, v)
	}
	return &t, nil
}

// parseETagHeader follows workerd's parseConditionalEtagHeader: quoted
// strong ETags, W/"weak" ones and "*" (which replaces the whole list),
// separated by commas, empty elements allowed. An empty result is unset.
func parseETagHeader(h string) ([]ETag, error) {
	var etags []ETag
	commaRequired := false
	for {
		wildcard, quote := indexOr(h, '*'), indexOr(h, '"')
		weak, comma := indexOr(h, 'W'), indexOr(h, ',')
		if wildcard == notFound && quote == notFound {
			return etags, nil
		}
		if comma < wildcard && comma < quote && comma < weak {
			h, commaRequired = h[comma+1:], false
			continue
		}
		if commaRequired {
			return nil, runtimeError(jsError, msgETagComma, commaProblem(wildcard, quote, weak))
		}
		if wildcard < quote {
			return []ETag{{Wildcard: true}}, nil
		}
		start := quote + 1
		end := strings.IndexByte(h[start:], '"')
		if end < 0 {
			return nil, runtimeError(jsError, msgETagUnclosed)
		}
		etag := ETag{Value: h[start : start+end]}
		if weak < quote {
			if weak+2 != quote || h[weak+1] != '/' {
				return nil, runtimeError(jsError, msgETagWeakSyntax)
			}
			etag.Weak = true
		}
		etags = append(etags, etag)
		h, commaRequired = h[start+end+1:], true
	}
}

const notFound = int(^uint(0) >> 1)

func indexOr(s string, c byte) int {
	if i := strings.IndexByte(s, c); i >= 0 {
		return i
	}
	return notFound
}

func commaProblem(wildcard, quote, weak int) string {
	switch min(wildcard, quote, weak) {
	case wildcard:
		return msgETagCommaWildcard
	case quote:
		return msgETagCommaQuote
	}
	return msgETagCommaWeak
}

// passes evaluates c against an object as R2 does (miniflare's
// _testR2Conditional, after RFC 7232 section 6). exists is false when the
// key has no object: then only If-Match and If-Modified-Since can fail.
func (c *Conditional) passes(exists bool, etag string, uploaded time.Time) bool {
	if !exists {
		return c.ETagMatches == nil && c.UploadedAfter == nil
	}
	ifMatch := c.ETagMatches == nil || includesETag(c.ETagMatches, etag, false)
	ifNoneMatch := c.ETagDoesNotMatch == nil || !includesETag(c.ETagDoesNotMatch, etag, true)

	ms := func(t time.Time) int64 {
		if c.SecondsGranularity {
			return t.Unix() * 1000
		}
		return t.UnixMilli()
	}
	lastModified := ms(uploaded)
	ifModifiedSince := c.UploadedAfter == nil || ms(*c.UploadedAfter) < lastModified ||
		(c.ETagDoesNotMatch != nil && ifNoneMatch)
	ifUnmodifiedSince := c.UploadedBefore == nil || lastModified < ms(*c.UploadedBefore) ||
		(c.ETagMatches != nil && ifMatch)
	return ifMatch && ifNoneMatch && ifModifiedSince && ifUnmodifiedSince
}

func includesETag(list []ETag, etag string, weakComparison bool) bool {
	for _, e := range list {
		if e.Wildcard {
			return true
		}
		if e.Value == etag && (!e.Weak || weakComparison) {
			return true
		}
	}
	return false
}
