package httpx

import (
	"bytes"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"
)

// Invalid describes input the router refuses before any route runs: text
// that is not valid UTF-8 in the path, a query parameter (name or value)
// or a string of a JSON body, or a query string with a broken %-escape.
// Go's decoders would otherwise turn such bytes into U+FFFD or drop them
// silently, and a search for the mangled text would be answered and
// cached as if it were what the caller sent.
type Invalid struct {
	// Where is "path", "query" or "body".
	Where string
	// Field names the query parameter; empty for the path and the body.
	Field string
	// Message says what is wrong, for the answer.
	Message string
}

// maxCheckedBody bounds the JSON body the router reads to check: the JS
// entry refuses bodies over 1 MiB before Go sees them.
const maxCheckedBody = 1 << 20

// checkInput returns what of r is not valid input, if anything, and the
// decoded query (Query). A JSON body it reads is put back for the handler.
func checkInput(r *http.Request) (Invalid, bool, url.Values) {
	if !utf8.ValidString(r.URL.Path) {
		return Invalid{Where: "path", Message: "The path is not valid UTF-8."}, true, nil
	}
	query, in, bad := checkQuery(r.URL.RawQuery)
	if bad {
		return in, true, nil
	}
	if r.Body == nil || r.Body == http.NoBody {
		return Invalid{}, false, query
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return Invalid{}, false, query
	}
	head, err := io.ReadAll(io.LimitReader(r.Body, maxCheckedBody+1))
	r.Body = readCloser{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
	if err != nil || len(head) > maxCheckedBody {
		return Invalid{}, false, query // the handler meets the same error or size
	}
	if !jsonTextValid(head) {
		return Invalid{Where: "body", Message: "The body is not valid JSON: a string is not valid UTF-8."}, true, nil
	}
	return Invalid{}, false, query
}

type readCloser struct {
	io.Reader
	io.Closer
}

// checkQuery decodes every name and value as url.ParseQuery does (`+` is
// a space, `;` is left alone) and refuses broken escapes and text that is
// not UTF-8. The values are url.ParseQuery's: a pair with a `;` is
// dropped, as there.
func checkQuery(raw string) (url.Values, Invalid, bool) {
	query := url.Values{}
	for raw != "" {
		var part string
		part, raw, _ = strings.Cut(raw, "&")
		if part == "" {
			continue
		}
		rawName, rawValue, _ := strings.Cut(part, "=")
		name, err := url.QueryUnescape(rawName)
		if err != nil || !utf8.ValidString(name) {
			return nil, Invalid{Where: "query", Field: safeField(name, err), Message: "A query parameter name is malformed or not valid UTF-8."}, true
		}
		value, err := url.QueryUnescape(rawValue)
		if err != nil {
			return nil, Invalid{Where: "query", Field: name, Message: "The query parameter " + name + " has a malformed %-escape."}, true
		}
		if !utf8.ValidString(value) {
			return nil, Invalid{Where: "query", Field: name, Message: "The query parameter " + name + " is not valid UTF-8."}, true
		}
		if !strings.Contains(part, ";") {
			query[name] = append(query[name], value)
		}
	}
	return query, Invalid{}, false
}

// safeField is a refused parameter name fit to echo: empty unless it
// decoded to valid UTF-8.
func safeField(name string, err error) string {
	if err != nil || !utf8.ValidString(name) {
		return ""
	}
	return name
}

// jsonTextValid reports whether b is valid UTF-8 and every \u escape in
// its strings names a Unicode scalar value (a lone surrogate escape is
// what encoding/json would turn into U+FFFD). It checks text only, not
// JSON syntax: the handler's decoder does that.
func jsonTextValid(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"':
			inString = !inString
		case inString && c == '\\' && i+1 < len(b):
			i++
			if b[i] != 'u' {
				continue
			}
			r, ok := hex4(b, i+1)
			if !ok {
				return true // malformed escape: invalid JSON, the decoder's 400
			}
			i += 4
			switch {
			case 0xDC00 <= r && r <= 0xDFFF:
				return false // a low surrogate alone
			case 0xD800 <= r && r <= 0xDBFF:
				if i+6 >= len(b) || b[i+1] != '\\' || b[i+2] != 'u' {
					return false // a high surrogate alone
				}
				low, ok := hex4(b, i+3)
				if !ok || low < 0xDC00 || low > 0xDFFF {
					return false
				}
				i += 6
			}
		}
	}
	return true
}

// hex4 reads four hex digits at b[i:].
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	return r, true
}
