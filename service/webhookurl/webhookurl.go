// Package webhookurl decides whether a webhook URL may be saved and called
// (spec 2, URL rules): https only, a public host, no user info; in the
// development environment also http://localhost, http://127.0.0.1 and
// http://[::1]. The dashboard checks at save, delivery checks again before
// every attempt, and both use the canonical URL Check returns, so what is
// sent is exactly what was checked.
//
// # Why the host is canonicalised here
//
// The Workers fetch reads URLs with the WHATWG URL parser, which is far
// more forgiving than Go's net/url: it turns 2130706433, 0177.0.0.1,
// 0x7f.1, 127.1, 127.0.0.1., %31%32%37.0.0.1 and full-width digits into
// 127.0.0.1, treats a backslash like a slash (so `https://a.com\@10.0.0.1/`
// has another host for fetch than for Go), drops tabs and newlines, and
// accepts `https:evil` without slashes. A check that reads the host with
// Go's rules and lets fetch read it again with WHATWG's is a server-side
// request forgery hole. So Check accepts only the narrow set of spellings
// both parsers read the same way, and refuses the rest outright instead
// of emulating WHATWG:
//
//   - printable ASCII only (no spaces, controls, backslashes or non-ASCII:
//     IDNA/Unicode hosts must be sent in their xn-- form);
//   - exactly `https://` (scheme in any case) and an authority without `@`;
//   - a host without `%` (percent-encoding), of lowercase-folded labels of
//     a-z, 0-9 and `-`, no empty label and no trailing dot;
//   - a host whose last label is numeric (digits, or 0x…) is an IPv4
//     address for WHATWG: only the plain dotted quad is accepted, every
//     other numeric spelling is refused;
//   - IPv6 only in brackets, without a zone.
//
// Addresses are judged by code.dny.dev/ssrf's tables (the IANA
// special-purpose registries): every IPv4 special range (private,
// loopback, link-local, CGNAT, multicast, broadcast, reserved,
// documentation, benchmarking) and every IPv6 address outside 2000::/3
// (so IPv4-mapped and -compatible forms, NAT64 64:ff9b::/96, ULA and
// link-local) plus the special ranges inside it (6to4 2002::/16, Teredo
// and the rest of 2001::/23, documentation). Names are refused when they
// are single-label, localhost, or under a suffix that never names a public
// host (.localhost, .local, .internal, .home.arpa, .lan, .arpa, .test,
// .invalid, .example, .onion).
//
// A public name can still resolve to a private address (DNS rebinding);
// a Worker has no resolver to check it with and Cloudflare's fetch does
// not reach private networks, so that last step belongs to the platform.
package webhookurl

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"

	"code.dny.dev/ssrf"
)

// Reasons a URL is refused; Check wraps one of them, so callers can match
// with errors.Is and the dashboard can answer with a stable message.
var (
	ErrSyntax     = errors.New("webhookurl: not a plain absolute URL")
	ErrScheme     = errors.New("webhookurl: only https is allowed")
	ErrUserInfo   = errors.New("webhookurl: user name or password in the URL")
	ErrNumeric    = errors.New("webhookurl: numeric host spelling other than a dotted quad")
	ErrPrivate    = errors.New("webhookurl: the address is not public")
	ErrInternal   = errors.New("webhookurl: the host name is internal")
	ErrHostSyntax = errors.New("webhookurl: the host is not a plain DNS name")
)

// MaxLength bounds a webhook URL.
const MaxLength = 2048

// public judges an address with code.dny.dev/ssrf's tables and the rule
// of its Guardian.SafeAddr: IPv6 (IPv4-mapped included) must lie in
// 2000::/3 outside the special-purpose prefixes; IPv4 outside the
// special-purpose prefixes. Only the tables are linked: the Guardian's
// error formatting would cost the Worker 13 KB gzip.
func public(ip netip.Addr) bool {
	if ip.Is6() {
		if !ssrf.IPv6GlobalUnicast.Contains(ip) {
			return false
		}
		for _, p := range ssrf.IPv6DeniedPrefixes {
			if p.Contains(ip) {
				return false
			}
		}
		return true
	}
	for _, p := range ssrf.IPv4DeniedPrefixes {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

// internalSuffixes never name a public host.
var internalSuffixes = []string{"localhost", "local", "internal", "home.arpa", "lan", "arpa",
	"test", "invalid", "example", "onion", "localdomain", "intranet", "corp", "private"}

// Options of a check: the zero value is production.
type Options struct {
	// Development also allows http and https to localhost, 127.0.0.1
	// and [::1] (any port).
	Development bool
}

// Check returns the canonical form of raw (lowercase scheme and host,
// default port dropped, no fragment, "/" for an empty path) or an error
// wrapping the reason it is refused.
func Check(raw string, opt Options) (string, error) {
	if raw == "" || len(raw) > MaxLength {
		return "", ErrSyntax
	}
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; c <= ' ' || c >= 0x7f || c == '\\' {
			return "", ErrSyntax
		}
	}
	colon := strings.IndexByte(raw, ':')
	if colon <= 0 {
		return "", ErrSyntax
	}
	scheme := strings.ToLower(raw[:colon])
	if scheme != "https" && scheme != "http" {
		return "", ErrScheme
	}
	rest := raw[colon+1:]
	if !strings.HasPrefix(rest, "//") {
		return "", ErrSyntax
	}
	rest = rest[2:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	authority, tail := rest[:end], rest[end:]
	if strings.Contains(authority, "@") {
		return "", ErrUserInfo
	}
	if i := strings.IndexByte(tail, '#'); i >= 0 {
		tail = tail[:i] // fetch never sends the fragment
	}
	for i := 0; i < len(tail); i++ {
		if tail[i] == '%' && (i+2 >= len(tail) || !isHex(tail[i+1]) || !isHex(tail[i+2])) {
			return "", ErrSyntax // a stray % reads differently in each parser
		}
	}
	if tail == "" || tail[0] == '?' {
		tail = "/" + tail
	}
	host, port, err := splitHostPort(authority)
	if err != nil {
		return "", err
	}
	devHost := host == "localhost" || host == "127.0.0.1" || host == "[::1]"
	switch {
	case opt.Development && devHost:
		// allowed in development with either scheme
	case scheme != "https":
		return "", ErrScheme
	default:
		if err := checkHost(host); err != nil {
			return "", err
		}
	}
	if port != "" && !(scheme == "https" && port == "443") && !(scheme == "http" && port == "80") {
		host += ":" + port
	}
	return scheme + "://" + host + tail, nil
}

// splitHostPort splits an authority and canonicalises the host: lowercase
// names, bracketed IPv6 in netip's form.
func splitHostPort(authority string) (host, port string, err error) {
	if strings.HasPrefix(authority, "[") {
		close := strings.IndexByte(authority, ']')
		if close < 0 {
			return "", "", ErrHostSyntax
		}
		lit := authority[1:close]
		if strings.ContainsAny(lit, "%") {
			return "", "", ErrHostSyntax
		}
		addr, perr := netip.ParseAddr(lit)
		if perr != nil || !addr.Is6() {
			return "", "", ErrHostSyntax
		}
		host = "[" + addr.String() + "]"
		authority = authority[close+1:]
		if authority != "" && authority[0] != ':' {
			return "", "", ErrHostSyntax
		}
	} else {
		i := strings.LastIndexByte(authority, ':')
		if i < 0 {
			i = len(authority)
		}
		host, authority = strings.ToLower(authority[:i]), authority[i:]
	}
	if authority != "" {
		port = authority[1:]
		if port != "" {
			n, perr := strconv.Atoi(port)
			if perr != nil || n < 1 || n > 65535 || port[0] == '0' || len(port) > 5 {
				return "", "", ErrSyntax
			}
		}
	}
	if host == "" {
		return "", "", ErrHostSyntax
	}
	return host, port, nil
}

// checkHost judges a canonical host (lowercase name, dotted quad or
// bracketed IPv6).
func checkHost(host string) error {
	if strings.HasPrefix(host, "[") {
		addr, _ := netip.ParseAddr(host[1 : len(host)-1])
		if !public(addr) {
			return ErrPrivate
		}
		return nil
	}
	if strings.ContainsAny(host, "%") {
		return ErrHostSyntax
	}
	labels := strings.Split(host, ".")
	if last := labels[len(labels)-1]; last == "" && len(labels) > 1 && numericLabel(labels[len(labels)-2]) {
		return ErrNumeric // 127.0.0.1. is 127.0.0.1 for WHATWG
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 {
			return ErrHostSyntax // empty label, trailing dot, overlong label
		}
	}
	if numericLabel(labels[len(labels)-1]) {
		addr, ok := dottedQuad(host)
		if !ok {
			return ErrNumeric
		}
		if !public(addr) {
			return ErrPrivate
		}
		return nil
	}
	if len(host) > 253 {
		return ErrHostSyntax
	}
	for _, l := range labels {
		if l[0] == '-' || l[len(l)-1] == '-' {
			return ErrHostSyntax
		}
		for i := 0; i < len(l); i++ {
			if c := l[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return ErrHostSyntax
			}
		}
	}
	if len(labels) < 2 {
		return ErrInternal
	}
	for _, s := range internalSuffixes {
		if host == s || strings.HasSuffix(host, "."+s) {
			return ErrInternal
		}
	}
	return nil
}

// numericLabel reports whether WHATWG's IPv4 parser would claim a host
// ending in this label: all digits, or 0x/0X followed by hex digits.
func numericLabel(l string) bool {
	if l == "" {
		return false
	}
	if len(l) >= 2 && l[0] == '0' && (l[1] == 'x' || l[1] == 'X') {
		for i := 2; i < len(l); i++ {
			if !isHex(l[i]) {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(l); i++ {
		if l[i] < '0' || l[i] > '9' {
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// dottedQuad parses the one numeric spelling both parsers read alike:
// four decimal parts 0-255 without leading zeros.
func dottedQuad(host string) (netip.Addr, bool) {
	parts := strings.Split(host, ".")
	if len(parts) != 4 {
		return netip.Addr{}, false
	}
	var b [4]byte
	for i, p := range parts {
		if p == "" || len(p) > 3 || (len(p) > 1 && p[0] == '0') {
			return netip.Addr{}, false
		}
		n, err := strconv.Atoi(p)
		if err != nil || n > 255 {
			return netip.Addr{}, false
		}
		b[i] = byte(n)
	}
	return netip.AddrFrom4(b), true
}
