// Package privacy decides whether a search query looks like personal data,
// so that it is never published in the nightly shard files (spec 1, Static
// files rule 6): email and web addresses, phone numbers in international
// and local forms, card and account numbers, postal codes, @handles and
// user ids, long tokens (hex, base64, JWT-like) and blocklisted words of
// each locale.
//
// The rules are hand-written scanners, not regular expressions: the Worker
// must stay small (regexp costs about 40 KB gzip), and a scanner states
// each rule plainly. They err on the side of refusing: a refused ordinary
// query only misses the shard files, while a published personal one would
// leak. Check both the query as typed and its normalized form (the
// normalizer drops the @, dots and plus signs that most rules look for).
package privacy

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Reasons a query is refused.
const (
	Email    = "email"
	Web      = "web_address"
	Phone    = "phone"
	Card     = "card_number"
	IBAN     = "iban"
	Number   = "account_number" // long digit runs: accounts, ids, phones without a plus
	Postal   = "postal_code"
	Handle   = "handle"
	UserID   = "user_id"
	Token    = "long_token"
	Blocked  = "blocklisted"
	minPhone = 7 // digits of the shortest local phone number we refuse
)

// Personal reports whether query (as typed, or normalized) looks like
// personal data in locale, and why.
func Personal(query, locale string) (string, bool) {
	q := strings.ToLower(query)
	for _, check := range []func(string) string{atSign, web, iban, tokens, digits, postcode} {
		if r := check(q); r != "" {
			return r, true
		}
	}
	if blocklisted(q, locale) {
		return Blocked, true
	}
	return "", false
}

// fields splits on white space.
func fields(q string) []string { return strings.Fields(q) }

// atSign: an @ (or full-width ＠) next to a letter or digit is an email
// address or a handle.
func atSign(q string) string {
	for i, r := range q {
		if r != '@' && r != '＠' {
			continue
		}
		after, _ := utf8.DecodeRuneInString(q[i+utf8.RuneLen(r):])
		if !isWord(after) {
			continue
		}
		before, _ := utf8.DecodeLastRuneInString(q[:i])
		if isWord(before) {
			return Email
		}
		return Handle
	}
	return ""
}

func isWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// tlds are endings of host names people type; a token "name.<tld>" is a web
// address, and a normalized query with one of the first few as a word
// ("example com") is too.
var tlds = map[string]bool{"com": true, "net": true, "org": true, "io": true, "co": true, "info": true,
	"biz": true, "app": true, "dev": true, "me": true, "edu": true, "gov": true, "ru": true, "de": true,
	"fr": true, "es": true, "it": true, "br": true, "tr": true, "in": true, "id": true, "cn": true,
	"uk": true, "pt": true, "ar": true, "bd": true, "xyz": true, "online": true, "site": true, "рф": true}

// webWords mark a normalized address: "www", "http(s)" anywhere, and
// "com", "net", "org" after a host word ("example com", not "dot com").
var webWords = map[string]bool{"http": true, "https": true, "www": true}

var hostEnds = map[string]bool{"com": true, "net": true, "org": true}

func web(q string) string {
	if strings.Contains(q, "://") || strings.Contains(q, "www.") {
		return Web
	}
	words := fields(q)
	for i, f := range words {
		if webWords[f] || (hostEnds[f] && i > 0 && words[i-1] != "dot") {
			return Web
		}
		f = strings.TrimRight(f, ".,;:!?)/")
		dot := strings.LastIndexByte(f, '.')
		if dot <= 0 {
			continue
		}
		host := f
		if slash := strings.IndexByte(f, '/'); slash > 0 {
			host = f[:slash]
			dot = strings.LastIndexByte(host, '.')
			if dot <= 0 {
				continue
			}
		}
		if tlds[host[dot+1:]] && isHostLabel(host[:dot]) {
			return Web
		}
	}
	return ""
}

func isHostLabel(s string) bool {
	for _, r := range s {
		if !(r == '-' || r == '.' || isWord(r)) {
			return false
		}
	}
	return s != ""
}

// digits finds runs of digits (any script) joined by at most one separator
// (space, hyphen, dot, slash, parentheses): seven digits or more are a
// phone, card or account number; five or six are a postal code.
func digits(q string) string {
	var run []int // digit values of the current run
	plus := false
	sep := 0
	verdict := ""
	flush := func() {
		switch n := len(run); {
		case n >= 13 && n <= 19 && luhn(run):
			verdict = Card
		case n >= minPhone && plus:
			verdict = Phone
		case n >= minPhone:
			verdict = Number
		case n >= 5 && verdict == "":
			verdict = Postal
		}
		run, plus, sep = run[:0], false, 0
	}
	for _, r := range q {
		switch {
		case unicode.IsDigit(r):
			run = append(run, digitValue(r))
			sep = 0
		case r == '+' && len(run) == 0:
			plus = true
		case len(run) > 0 && (r == ' ' || r == '-' || r == '.' || r == '/' || r == '(' || r == ')') && sep < 2:
			sep++
		case r == '(' && len(run) == 0:
		default:
			if len(run) > 0 {
				flush()
			}
			plus = false
		}
		if verdict == Card || verdict == Phone || verdict == Number {
			return verdict
		}
	}
	if len(run) > 0 {
		flush()
	}
	return verdict
}

func digitValue(r rune) int {
	if r >= '0' && r <= '9' {
		return int(r - '0')
	}
	// Unicode decimal digits come in blocks of ten starting at a zero.
	for z := r; z > r-10; z-- {
		if !unicode.IsDigit(z - 1) {
			return int(r - z)
		}
	}
	return 0
}

// luhn is the card number check.
func luhn(d []int) bool {
	sum := 0
	for i := range d {
		v := d[len(d)-1-i]
		if i%2 == 1 {
			if v *= 2; v > 9 {
				v -= 9
			}
		}
		sum += v
	}
	return sum%10 == 0
}

// iban finds a compact IBAN: two letters, two digits, then letters and
// digits, 15 to 34 in all, with the mod-97 check.
func iban(q string) string {
	for _, f := range fields(strings.ToUpper(q)) {
		if len(f) < 15 || len(f) > 34 || !isASCIIUpper(f[0]) || !isASCIIUpper(f[1]) || !isASCIIDigit(f[2]) || !isASCIIDigit(f[3]) {
			continue
		}
		rem, ok := 0, true
		for _, c := range f[4:] + f[:4] {
			switch {
			case c >= '0' && c <= '9':
				rem = (rem*10 + int(c-'0')) % 97
			case c >= 'A' && c <= 'Z':
				rem = (rem*100 + int(c-'A'+10)) % 97
			default:
				ok = false
			}
		}
		if ok && rem == 1 {
			return IBAN
		}
	}
	return ""
}

func isASCIIUpper(b byte) bool { return b >= 'A' && b <= 'Z' }
func isASCIIDigit(b byte) bool { return b >= '0' && b <= '9' }

// shape maps a token to letter (a) and digit (9) classes, or "" when it
// holds anything else.
func shape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z':
			b.WriteByte('a')
		case isASCIIDigit(c):
			b.WriteByte('9')
		default:
			return ""
		}
	}
	return b.String()
}

// Postcode shapes of two words: British (outward + inward), Canadian and
// Dutch. Plain five- and six-digit codes are found by digits.
var (
	ukOutward = map[string]bool{"a9": true, "a99": true, "aa9": true, "aa99": true, "a9a": true, "aa9a": true}
	postPairs = map[[2]string]bool{{"a9a", "9a9"}: true, {"9999", "aa"}: true}
)

func postcode(q string) string {
	f := fields(q)
	for i := 0; i+1 < len(f); i++ {
		a, b := shape(f[i]), shape(f[i+1])
		if (ukOutward[a] && b == "9aa") || postPairs[[2]string{a, b}] {
			return Postal
		}
	}
	for _, w := range f { // written without the space
		if s := shape(w); s == "a9a9a9" || (len(s) >= 5 && len(s) <= 7 && ukOutward[s[:len(s)-3]] && s[len(s)-3:] == "9aa") {
			return Postal
		}
	}
	return ""
}

// tokens refuses user ids (letters with four digits or more, or "id"/"uid"
// words followed by a number) and long tokens: hex of 16+ with a digit,
// base64 of 20+ mixing letters and digits, and JWT-like eyJ… tokens.
func tokens(q string) string {
	f := fields(q)
	for i, w := range f {
		if strings.HasPrefix(w, "eyj") && len(w) >= 10 {
			return Token
		}
		var letters, digitsN, hex, b64, other int
		for _, r := range w {
			switch {
			case r >= '0' && r <= '9':
				digitsN++
				hex++
				b64++
			case r >= 'a' && r <= 'f':
				letters++
				hex++
				b64++
			case r >= 'g' && r <= 'z':
				letters++
				b64++
			case r == '+' || r == '/' || r == '=' || r == '_' || r == '-' || r == '.':
				b64++
			default:
				other++
			}
		}
		n := utf8.RuneCountInString(w)
		switch {
		case hex == n && n >= 16 && digitsN > 0 && letters > 0, hex == n && n >= 24 && letters > 0:
			return Token
		case other == 0 && n >= 20 && letters > 0 && digitsN > 0:
			return Token
		case other == 0 && letters > 0 && digitsN >= 4:
			return UserID
		}
		if idWords[strings.Trim(w, ":#=")] && i+1 < len(f) && hasDigits(f[i+1], 3) {
			return UserID
		}
		if eq := strings.IndexAny(w, ":#="); eq > 0 && idWords[w[:eq]] && hasDigits(w[eq+1:], 3) {
			return UserID
		}
	}
	return ""
}

var idWords = map[string]bool{"id": true, "uid": true, "userid": true, "user": true, "account": true,
	"acct": true, "customer": true, "order": true, "ticket": true, "member": true, "no": true, "nr": true, "#": true}

func hasDigits(s string, n int) bool {
	c := 0
	for _, r := range s {
		if unicode.IsDigit(r) {
			c++
		}
	}
	return c >= n
}
