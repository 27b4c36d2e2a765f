package imageintake

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
)

// Namespaces the SVG check knows by name.
const (
	svgNS       = "http://www.w3.org/2000/svg"
	xhtmlNS     = "http://www.w3.org/1999/xhtml"
	mathmlNS    = "http://www.w3.org/1998/Math/MathML"
	xmlEventsNS = "http://www.w3.org/2001/xml-events"
	xslNS       = "http://www.w3.org/1999/XSL/Transform"
	xmlNS       = "http://www.w3.org/XML/1998/namespace"
)

// forbiddenElements can run script, embed another document or load one,
// in whatever namespace they appear (compared in lower case: refusing an
// inert <SCRIPT> costs nothing, missing a live one costs everything).
var forbiddenElements = map[string]bool{
	"script": true, "foreignobject": true, "iframe": true, "frame": true, "embed": true,
	"object": true, "applet": true, "handler": true, "listener": true, "meta": true,
	"link": true, "base": true, "form": true, "audio": true, "video": true,
}

// activeNamespaces hold elements a browser gives behaviour to inside an
// SVG document (an XHTML <script> runs there); none belongs in an emoji.
var activeNamespaces = map[string]bool{xhtmlNS: true, mathmlNS: true, xmlEventsNS: true, xslNS: true}

// animationElements can rewrite another attribute at run time, so what
// they target is checked like the attribute itself.
var animationElements = map[string]bool{
	"animate": true, "set": true, "animatetransform": true, "animatemotion": true, "animatecolor": true,
}

// checkSVG parses b as XML, token by token with namespaces resolved
// (encoding/xml in Strict mode, no entities beyond the five predefined
// ones), and refuses it as unsafe_svg when anything in it could run
// script, reach outside the file or hide markup: the lists of both specs
// plus the known bypasses (see the package tests' attack corpus). A file
// whose root is not an <svg> element of the SVG namespace is not an SVG
// (unsupported_image). The check parses; it never searches the raw text,
// so encodings, entities, CDATA and prefixes are seen as a browser sees
// them.
func checkSVG(b []byte) error {
	// A browser skips the UTF-8 byte order mark; the decoder would see text.
	d := xml.NewDecoder(bytes.NewReader(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))))
	d.Strict = true
	badCharset := false
	d.CharsetReader = func(charset string, input io.Reader) (io.Reader, error) {
		// Only encodings whose bytes we read exactly as the browser does:
		// under another one the browser would see other markup than we do.
		switch strings.ToLower(charset) {
		case "utf-8", "utf8", "us-ascii", "ascii":
			return input, nil
		}
		badCharset = true
		return nil, errors.New("encoding " + charset + " is not accepted")
	}
	c := svgChecker{}
	for n := 0; ; n++ {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			if !c.rootSeen && !badCharset {
				return refuse(ErrUnsupported, "not an SVG: %v", err)
			}
			return refuse(ErrUnsafeSVG, "not well-formed XML: %v", err)
		}
		if err := c.token(tok, n); err != nil {
			return err
		}
	}
	if !c.rootSeen {
		return refuse(ErrUnsupported, "not an SVG: no root element")
	}
	return nil
}

// svgChecker holds the little state the rules need.
type svgChecker struct {
	rootSeen bool     // the <svg> root has started
	rootDone bool     // ... and ended: only comments and white space may follow
	stack    []string // lower-case local names of the open elements
	style    []byte   // text of the open <style> element
	doctype  string   // the name of a DOCTYPE of another type before the root
}

func (c *svgChecker) token(tok xml.Token, n int) error {
	switch t := tok.(type) {
	case xml.StartElement:
		if c.rootDone {
			return refuse(ErrUnsafeSVG, "content after the root element")
		}
		if n := len(c.stack); n > 0 && c.stack[n-1] == "style" {
			// A browser joins the text around it into one style sheet.
			return refuse(ErrUnsafeSVG, "an element inside <style>")
		}
		if !c.rootSeen {
			if t.Name.Local != "svg" || t.Name.Space != svgNS {
				return refuse(ErrUnsupported, "not an SVG: the root element is not <svg> of the SVG namespace")
			}
			if c.doctype != "" {
				return refuse(ErrUnsafeSVG, "a DOCTYPE declaration (%s)", c.doctype)
			}
			c.rootSeen = true
		}
		local := strings.ToLower(t.Name.Local)
		if activeNamespaces[t.Name.Space] {
			return refuse(ErrUnsafeSVG, "<%s> of namespace %s", t.Name.Local, t.Name.Space)
		}
		if forbiddenElements[local] {
			return refuse(ErrUnsafeSVG, "a <%s> element", t.Name.Local)
		}
		for _, a := range t.Attr {
			if err := checkAttr(local, a); err != nil {
				return err
			}
		}
		c.stack = append(c.stack, local)
	case xml.EndElement:
		if len(c.stack) == 0 {
			return refuse(ErrUnsafeSVG, "unbalanced end tag")
		}
		if c.stack[len(c.stack)-1] == "style" {
			if err := checkCSS(string(c.style)); err != nil {
				return err
			}
			c.style = c.style[:0]
		}
		c.stack = c.stack[:len(c.stack)-1]
		if len(c.stack) == 0 {
			c.rootDone = true
		}
	case xml.CharData:
		if len(c.stack) == 0 {
			if len(bytes.TrimSpace(t)) > 0 {
				return refuse(ErrUnsafeSVG, "text outside the root element")
			}
			return nil
		}
		if c.stack[len(c.stack)-1] == "style" {
			c.style = append(c.style, t...)
			return nil
		}
		return checkText(t)
	case xml.ProcInst:
		// The XML declaration may open the file; any other instruction
		// (xml-stylesheet above all) can pull in and run other documents.
		if t.Target != "xml" || n != 0 {
			return refuse(ErrUnsafeSVG, "processing instruction <?%s?>", t.Target)
		}
	case xml.Directive:
		// DOCTYPE and ENTITY declarations: external DTDs and entity
		// expansion. A plain DOCTYPE of another document type (an HTML
		// page) leaves the verdict to the root element: not an SVG, or an
		// SVG with a DOCTYPE (unsafe). One with an internal subset
		// declares entities, whatever it names.
		if !c.rootSeen && !bytes.ContainsRune(t, '[') {
			if name, ok := doctypeName(t); ok && !strings.EqualFold(localPart(name), "svg") {
				c.doctype = name
				return nil
			}
		}
		return refuse(ErrUnsafeSVG, "a DOCTYPE or ENTITY declaration")
	case xml.Comment:
		// Comments are inert, and editors write them (Illustrator's
		// generator line).
	}
	return nil
}

// checkAttr applies the attribute rules of element el (lower-case local
// name).
func checkAttr(el string, a xml.Attr) error {
	if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
		return nil // a namespace declaration; elements using it are checked
	}
	local := strings.ToLower(a.Name.Local)
	switch {
	case strings.HasPrefix(local, "on"):
		return refuse(ErrUnsafeSVG, "an event handler attribute %s", a.Name.Local)
	case a.Name.Space == xmlEventsNS:
		return refuse(ErrUnsafeSVG, "an XML Events attribute %s", a.Name.Local)
	case local == "base" && (a.Name.Space == xmlNS || a.Name.Space == "xml"):
		// xml:base turns "#id" into a reference to another document.
		return refuse(ErrUnsafeSVG, "an xml:base attribute")
	case local == "href" || local == "src":
		// Any prefix: xlink:href, href, or a made-up prefix bound to the
		// XLink namespace (or to nothing) all reach the same attribute.
		if err := checkRef(a.Value, el != "use"); err != nil {
			return err
		}
	case local == "attributename" && animationElements[el]:
		target := strings.ToLower(strings.TrimSpace(localPart(a.Value)))
		if target == "href" || target == "src" || strings.HasPrefix(target, "on") {
			return refuse(ErrUnsafeSVG, "<%s> writing %s", el, a.Value)
		}
	}
	// Every value: hidden schemes, and CSS functions that fetch (presentation
	// attributes such as fill="url(#g)" are CSS). Attributes of editor
	// namespaces (inkscape:, sodipodi:, Illustrator's) are not CSS to a
	// browser and may hold a backslash, e.g. a Windows export path.
	cssContext := a.Name.Space == "" || a.Name.Space == svgNS
	return checkValue(a.Value, cssContext)
}

// checkText refuses text that carries markup or a script URL: a CDATA
// section or escaped text is plain text to the SVG renderer, but the same
// file pasted into an HTML page or a careless template becomes live.
func checkText(t []byte) error {
	for i := 0; i+1 < len(t); i++ {
		if t[i] != '<' {
			continue
		}
		if c := t[i+1]; c == '!' || c == '?' || c == '/' || (c|0x20 >= 'a' && c|0x20 <= 'z') {
			return refuse(ErrUnsafeSVG, "markup hidden in text")
		}
	}
	if hasScriptScheme(squeeze(string(t))) {
		return refuse(ErrUnsafeSVG, "a script URL in text")
	}
	return nil
}

// doctypeName is the document type name of a <!DOCTYPE name ...>.
func doctypeName(d xml.Directive) (string, bool) {
	f := strings.Fields(string(d))
	if len(f) < 2 || f[0] != "DOCTYPE" {
		return "", false
	}
	return strings.TrimRight(f[1], "[>"), true
}

// localPart drops a namespace prefix: "xlink:href" -> "href".
func localPart(s string) string {
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		return s[i+1:]
	}
	return s
}
