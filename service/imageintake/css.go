package imageintake

import "strings"

// checkCSS refuses style text (a <style> element, a style attribute, a
// presentation attribute) that could fetch or run anything: @import, a
// url() or src() that is not a fragment of this file or an embedded
// raster image, the fetching image functions, old script hooks
// (expression(), behavior, -moz-binding) and script URLs. CSS escapes are
// refused outright, since "\75 rl(" is url( to a browser.
func checkCSS(s string) error {
	if strings.IndexByte(s, '\\') >= 0 {
		return refuse(ErrUnsafeSVG, "a CSS escape")
	}
	if err := scanCSS(squeeze(s)); err != nil {
		return err
	}
	// Comments are checked both ways: a "/*" inside a CSS string is no
	// comment, and a comment can split a word that then joins up.
	if strings.Contains(s, "/*") {
		return scanCSS(squeeze(stripCSSComments(s)))
	}
	return nil
}

// scanCSS checks squeezed CSS text.
func scanCSS(low string) error {
	if hasScriptScheme(low) {
		return refuse(ErrUnsafeSVG, "a script URL in CSS")
	}
	for _, bad := range []string{"@import", "expression(", "behavior:", "-moz-binding", "image-set(", "image(", "cross-fade(", "element("} {
		if strings.Contains(low, bad) {
			return refuse(ErrUnsafeSVG, "CSS %s", strings.TrimRight(bad, "(:"))
		}
	}
	for _, fn := range []string{"url(", "src("} {
		for rest := low; ; {
			i := strings.Index(rest, fn)
			if i < 0 {
				break
			}
			rest = rest[i+len(fn):]
			if err := checkRef(cssArg(rest), true); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkValue applies the rules every attribute value obeys. cssContext is
// false for attributes of editor namespaces, which browsers ignore.
func checkValue(v string, cssContext bool) error {
	// Every rule needs one of these characters (a scheme's ':', a CSS
	// function's '(', '@import', an escape): most values, path data
	// above all, have none and skip the scans.
	if strings.IndexAny(v, ":(@\\") < 0 {
		return nil
	}
	if hasScriptScheme(squeeze(v)) {
		return refuse(ErrUnsafeSVG, "a script URL in an attribute")
	}
	if cssContext {
		return checkCSS(v)
	}
	return nil
}

// safeDataImages are the data: URI types that render as an inert image.
// An SVG or HTML data URI is another document with its own rules.
var safeDataImages = map[string]bool{
	"image/png": true, "image/gif": true, "image/webp": true, "image/jpeg": true, "image/jpg": true,
}

// checkRef accepts a reference that stays inside the file: empty, a
// fragment ("#id"), or (when allowData) a data: URI of a raster image.
// Everything else reaches outside: another origin, a relative file, a
// script scheme.
func checkRef(v string, allowData bool) error {
	s := squeeze(v)
	if s == "" || s[0] == '#' {
		return nil
	}
	if strings.HasPrefix(s, "data:") {
		mime := s[len("data:"):]
		if i := strings.IndexAny(mime, ";,"); i >= 0 {
			mime = mime[:i]
		}
		if !allowData {
			return refuse(ErrUnsafeSVG, "a data: URI where only a reference inside the file may stand")
		}
		if !safeDataImages[mime] {
			return refuse(ErrUnsafeSVG, "a data: URI of type %q", mime)
		}
		return nil
	}
	return refuse(ErrUnsafeSVG, "a reference outside the file")
}

// cssArg is the argument of a CSS function whose text follows the
// opening parenthesis: a quoted string, or the text up to ')'.
func cssArg(s string) string {
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		if i := strings.IndexByte(s[1:], s[0]); i >= 0 {
			return s[1 : 1+i]
		}
		return s[1:]
	}
	if i := strings.IndexByte(s, ')'); i >= 0 {
		return s[:i]
	}
	return s
}

// squeeze lower-cases ASCII letters and drops ASCII white space and
// control characters, which URL parsers strip or skip: "java\tscript:"
// and " JavaScript:" both become "javascript:".
func squeeze(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c <= 0x20 || c == 0x7f:
		case c >= 'A' && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// hasScriptScheme: s is squeezed.
func hasScriptScheme(s string) bool {
	return strings.Contains(s, "javascript:") || strings.Contains(s, "vbscript:") || strings.Contains(s, "livescript:")
}

// stripCSSComments removes /* ... */ (an unclosed one runs to the end,
// as in CSS).
func stripCSSComments(s string) string {
	if !strings.Contains(s, "/*") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "/*")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		j := strings.Index(s[i+2:], "*/")
		if j < 0 {
			return b.String()
		}
		s = s[i+2+j+2:]
	}
}
