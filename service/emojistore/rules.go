package emojistore

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/engine"
)

// Field limits of both specs.
const (
	MaxShortcode  = 64  // characters
	MaxAliases    = 20  // per emoji
	MaxAlias      = 64  // characters, normalized
	MaxExternalID = 128 // characters
	MaxTenantName = 128 // characters (the spec leaves it to us)
)

// FieldError names the request field a value breaks, for the
// invalid_request answers of both error shapes.
type FieldError struct {
	Field   string
	Message string
}

func (e *FieldError) Error() string { return "emojistore: " + e.Field + ": " + e.Message }

// NormalizeShortcode applies the shortcode rule (spec 2, the stricter of
// the two specs): surrounding colons and spaces dropped, ASCII letters
// lower-cased, then 1 to 64 characters of a-z 0-9 _ + - with at least one
// letter or digit. Only ASCII is lower-cased, so a look-alike such as the
// Kelvin sign is refused rather than turned into "k".
func NormalizeShortcode(s string) (string, error) {
	s = strings.Trim(s, ": ")
	b := []byte(s)
	alnum := false
	for i, c := range b {
		switch {
		case c >= 'A' && c <= 'Z':
			b[i] = c + 'a' - 'A'
			alnum = true
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			alnum = true
		case c == '_' || c == '+' || c == '-':
		default:
			return "", &FieldError{"shortcode", "shortcode may hold only a-z, 0-9, _, + and -."}
		}
	}
	if len(b) == 0 || len(b) > MaxShortcode || !alnum {
		return "", &FieldError{"shortcode", "shortcode must be 1 to 64 characters with at least one letter or digit."}
	}
	return string(b), nil
}

// SplitAliases splits the comma-separated form value of `aliases`.
func SplitAliases(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// NormalizeAliases normalizes each alias like a search query, drops empty
// and repeated ones, and refuses more than 20 or one longer than 64
// characters (it never cuts: a cut alias would match other words).
func NormalizeAliases(in []string) ([]string, error) {
	out := []string{}
	for _, a := range in {
		if !utf8.ValidString(a) {
			return nil, &FieldError{"aliases", "aliases must be UTF-8 text."}
		}
		n := engine.Normalize(a, 4*MaxAlias)
		if n == "" || contains(out, n) {
			continue
		}
		if utf8.RuneCountInString(n) > MaxAlias {
			return nil, &FieldError{"aliases", "Each alias is at most 64 characters."}
		}
		out = append(out, n)
	}
	if len(out) > MaxAliases {
		return nil, &FieldError{"aliases", "At most 20 aliases."}
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ValidExternalID applies spec 1's rule: 1 to 128 characters from letters,
// digits and . _ ~ : @ + - (letters and digits of ASCII: the id travels
// in paths and query strings).
func ValidExternalID(s string) bool {
	if len(s) == 0 || len(s) > MaxExternalID {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("._~:@+-", c) >= 0) {
			return false
		}
	}
	return true
}

// TenantName checks and trims a tenant's display name: at most 128
// characters, no control or bidirectional-override characters.
func TenantName(s string) (string, error) {
	s = strings.TrimSpace(s)
	if !utf8.ValidString(s) || utf8.RuneCountInString(s) > MaxTenantName ||
		strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) }) {
		return "", &FieldError{"name", "name is at most 128 characters, without control characters."}
	}
	return s, nil
}

// Errors of the store, matched with errors.Is.
var (
	ErrNotFound       = errors.New("emojistore: no such custom emoji")
	ErrTenantNotFound = errors.New("emojistore: no such tenant")
	ErrShortcodeTaken = errors.New("emojistore: shortcode taken in this scope")
	ErrTenantExists   = errors.New("emojistore: tenant externalId exists")
	// ErrStorage: the image store failed or is not bound; nothing was
	// stored or deleted.
	ErrStorage = errors.New("emojistore: image store unavailable")
)

// LimitError: the account has reached its plan's custom_emoji limit.
type LimitError struct {
	Used, Limit int64
}

func (e *LimitError) Error() string { return "emojistore: custom emoji limit reached" }
