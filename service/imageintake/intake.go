// Package imageintake is the one gate every custom emoji image passes
// before it is stored: dashboard uploads, the tenants API and chat imports
// (spec 1 tenants API field rules, spec 2 custom emoji rules). It reads the
// type from the bytes (PNG, GIF, WebP, SVG; never from a file name or a
// declared Content-Type), caps the size at 256 KB, and refuses SVG files
// that could run script or reach outside themselves (svg.go).
//
// Images that pass are stored unchanged: the package never rewrites a file,
// so what an owner uploaded is what is served, byte for byte, with the
// detected content type, nosniff and a sandboxing CSP (service/customhost).
//
// It is small on purpose: no image decoders (they would grow the Worker by
// hundreds of KB). A raster image is recognised by its magic bytes and
// first chunk header, which is all a browser uses to pick a decoder; then
// raster.go reads its structure to the end (every PNG chunk and CRC, GIF
// block and frame, WebP chunk) and refuses, before anything is stored,
// an image over the pixel budget (MaxSide a side), an animation over the
// frame budget, and a truncated or undecodable file (PNG image data is
// inflated and GIF frames LZW-decoded up to the size their headers
// promise, never further; WebP bitstreams are checked to their headers,
// the Worker has no VP8 decoder).
package imageintake

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/cespare/xxhash/v2"
)

// MaxBytes is the upload limit of both specs ("at most 256 KB").
const MaxBytes = 256 * 1024

// Image is an accepted image.
type Image struct {
	// ContentType is the type read from the bytes: image/png, image/gif,
	// image/webp or image/svg+xml. It is what the image is served with.
	ContentType string
	// Ext is the file extension of the stored object: png, gif, webp, svg.
	Ext string
	// Bytes is the size.
	Bytes int
	// Hash is the xxhash64 of the bytes, 16 lower-case hex digits: the
	// stored object's hash and the served ETag.
	Hash string
	// Declared is the Content-Type the sender claimed, kept only so a
	// caller can log a mismatch; it never decides anything.
	Declared string
}

// Error is a refusal, carrying the spec's error code and status so every
// caller answers the same way. All refusals concern the field `file`.
type Error struct {
	Code   string // image_too_large, unsupported_image, unsafe_svg, invalid_request, invalid_image, image_too_many_pixels, image_too_many_frames
	Status int    // 413, 415, 400, 400, 400, 400, 400
	Reason string // why, for the message; never echoes file content
}

func (e *Error) Error() string { return "imageintake: " + e.Code + ": " + e.Reason }

// Field is the request field the refusal is about.
func (e *Error) Field() string { return "file" }

// Is matches the sentinel of the same code, so callers can write
// errors.Is(err, imageintake.ErrUnsafeSVG).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Sentinels for errors.Is; the errors Check returns carry a specific Reason.
var (
	ErrEmpty       = &Error{Code: "invalid_request", Status: 400, Reason: "the file is empty"}
	ErrTooLarge    = &Error{Code: "image_too_large", Status: 413, Reason: "the image is over 256 KB"}
	ErrUnsupported = &Error{Code: "unsupported_image", Status: 415, Reason: "not a PNG, GIF, WebP or SVG image"}
	ErrUnsafeSVG   = &Error{Code: "unsafe_svg", Status: 400, Reason: "the SVG is not safe to serve"}
)

func refuse(base *Error, format string, args ...any) *Error {
	return &Error{Code: base.Code, Status: base.Status, Reason: fmt.Sprintf(format, args...)}
}

// Check decides whether b may be stored as a custom emoji image and with
// which type. declaredType is what the sender claimed (a multipart part's
// Content-Type, a download's header); it is recorded, never trusted: a PNG
// declared as text/html is a PNG, and an SVG declared as image/png is
// still checked as the SVG it is.
func Check(b []byte, declaredType string) (Image, error) {
	if len(b) == 0 {
		return Image{}, ErrEmpty
	}
	if len(b) > MaxBytes {
		return Image{}, refuse(ErrTooLarge, "the image has %d bytes, the limit is %d", len(b), MaxBytes)
	}
	img := Image{Bytes: len(b), Declared: declaredType}
	var err error
	switch {
	case isPNG(b):
		img.ContentType, img.Ext, err = "image/png", "png", checkPNG(b)
	case isGIF(b):
		img.ContentType, img.Ext, err = "image/gif", "gif", checkGIF(b)
	case isWebP(b):
		img.ContentType, img.Ext, err = "image/webp", "webp", checkWebP(b)
	case looksLikeXML(b):
		if err := checkSVG(b); err != nil {
			return Image{}, err
		}
		img.ContentType, img.Ext = "image/svg+xml", "svg"
	default:
		return Image{}, ErrUnsupported
	}
	if err != nil {
		return Image{}, err
	}
	img.Hash = Hash(b)
	return img, nil
}

// Hash is the content hash used for stored objects and ETags: xxhash64 of
// the bytes as 16 hex digits. A fast non-cryptographic hash serves: it
// names content we already hold, it authenticates nothing.
func Hash(b []byte) string {
	s := strconv.FormatUint(xxhash.Sum64(b), 16)
	for len(s) < 16 {
		s = "0" + s
	}
	return s
}

var pngSig = []byte("\x89PNG\r\n\x1a\n")

// isPNG: the signature, then the IHDR chunk of length 13 that must come
// first in every PNG.
func isPNG(b []byte) bool {
	return len(b) >= 33 && bytes.HasPrefix(b, pngSig) &&
		binary.BigEndian.Uint32(b[8:12]) == 13 && string(b[12:16]) == "IHDR"
}

// isGIF: GIF87a or GIF89a plus the 7-byte logical screen descriptor.
func isGIF(b []byte) bool {
	return len(b) >= 13 && (string(b[:6]) == "GIF87a" || string(b[:6]) == "GIF89a")
}

// isWebP: a RIFF container of form WEBP whose first chunk is one of the
// three WebP image chunks, with a RIFF size that fits the bytes received.
func isWebP(b []byte) bool {
	if len(b) < 20 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return false
	}
	if size := binary.LittleEndian.Uint32(b[4:8]); size < 12 || uint64(size)+8 > uint64(len(b)) {
		return false
	}
	switch string(b[12:16]) {
	case "VP8 ", "VP8L", "VP8X":
		return true
	}
	return false
}

// looksLikeXML: after an optional UTF-8 byte order mark and white space
// the text starts with '<'. Whether it is an SVG is the parser's call.
func looksLikeXML(b []byte) bool {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && b[0] == '<'
}
