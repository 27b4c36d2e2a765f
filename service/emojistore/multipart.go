package emojistore

import (
	"bytes"
	"errors"
	"mime"
	"strings"
)

// A small multipart/form-data reader for the upload forms. Go's
// mime/multipart (with net/textproto's header reader) adds about 20 KB of
// gzip to the Worker, close to the Free plan's size limit; a form of a few
// parts held in memory needs far less. FuzzMultipart checks it against
// mime/multipart: whatever both accept, both read alike.

// formPart is one part of a form.
type formPart struct {
	name        string // Content-Disposition name
	contentType string
	body        []byte
}

// errMalformed is any syntax error of the body.
var errMalformed = errors.New("emojistore: malformed multipart body")

// maxPartHeader bounds one part's header block.
const maxPartHeader = 8 << 10

// parseForm splits body, a multipart body with boundary, into its parts.
// It accepts a preamble and an epilogue, CRLF or LF line ends, and
// transport padding after a delimiter, as RFC 2046 allows; it refuses a
// missing close delimiter (a truncated body), header blocks over 8 KB,
// folded header lines, and content transfer encodings other than the
// identity ones.
func parseForm(body []byte, boundary string) ([]formPart, error) {
	if boundary == "" || len(boundary) > 70 {
		return nil, errMalformed
	}
	dash := []byte("--" + boundary)
	// The first delimiter: at the start or after a line end.
	var rest []byte
	switch i := bytes.Index(body, dash); {
	case i < 0:
		return nil, errMalformed
	case i == 0:
		rest = body[len(dash):]
	default:
		j := bytes.Index(body, append([]byte("\n"), dash...))
		if j < 0 {
			return nil, errMalformed
		}
		rest = body[j+1+len(dash):]
	}
	// The first delimiter line's end (CRLF or LF) is the body's line end,
	// as mime/multipart reads it: every later delimiter must use it too.
	nl := []byte("\r\n")
	if pad := bytes.TrimLeft(rest, " \t"); bytes.HasPrefix(pad, []byte("\n")) {
		nl = []byte("\n")
	}
	delim := append(append([]byte{}, nl...), dash...)
	var parts []formPart
	for {
		if bytes.HasPrefix(rest, []byte("--")) {
			return parts, nil // close delimiter; the epilogue is ignored
		}
		rest = bytes.TrimLeft(rest, " \t")
		if !bytes.HasPrefix(rest, nl) {
			return nil, errMalformed
		}
		p, after, err := parsePart(rest[len(nl):], delim)
		if err != nil {
			return nil, err
		}
		parts = append(parts, p)
		rest = after
	}
}

// parsePart reads one part's headers and content up to the next
// delimiter; after is what follows the delimiter.
func parsePart(b, delim []byte) (formPart, []byte, error) {
	var p formPart
	for n := 0; ; {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return p, nil, errMalformed
		}
		line := b[:i]
		b = b[i+1:]
		if n += i + 1; n > maxPartHeader {
			return p, nil, errMalformed
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			break
		}
		if line[0] == ' ' || line[0] == '\t' {
			return p, nil, errMalformed // obsolete line folding
		}
		k, v, ok := strings.Cut(string(line), ":")
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			return p, nil, errMalformed
		}
		v = strings.TrimSpace(v)
		switch strings.ToLower(k) {
		case "content-disposition":
			disp, params, err := mime.ParseMediaType(v)
			if err != nil || disp != "form-data" {
				return p, nil, errMalformed
			}
			p.name = params["name"]
		case "content-type":
			p.contentType = v
		case "content-transfer-encoding":
			switch strings.ToLower(v) {
			case "7bit", "8bit", "binary":
			default:
				return p, nil, errMalformed
			}
		}
	}
	if dash := delim[bytes.IndexByte(delim, '-'):]; bytes.HasPrefix(b, dash) {
		// An empty part whose header block's last line end doubles as the
		// delimiter's, as mime/multipart reads it.
		return p, b[len(dash):], nil
	}
	i := bytes.Index(b, delim)
	if i < 0 {
		return p, nil, errMalformed // truncated: no delimiter follows
	}
	p.body = b[:i] // the line end before the delimiter belongs to it
	return p, b[i+len(delim):], nil
}
