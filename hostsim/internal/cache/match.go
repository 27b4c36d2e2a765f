package cache

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/emojisearch/emojisearch/hostsim/internal/filestore"
)

// answer builds the response to a hit the way miniflare's cache does
// (cache.worker.ts match and getMatchResponse): Range is parsed first (an
// unsatisfiable one is a 416 hit), then If-None-Match, then
// If-Modified-Since, then the range is served.
func answer(req Request, e storedEntry, body []byte, age string, rnd io.Reader) (*Response, error) {
	size := int64(len(body))
	var ranges []filestore.ByteRange
	if rangeHeader := req.Header.Get("Range"); rangeHeader != "" {
		var ok bool
		if ranges, ok = filestore.ParseRanges(rangeHeader, size); !ok {
			return &Response{Status: http.StatusRequestedRangeNotSatisfiable, Header: http.Header{
				"Content-Range":   {fmt.Sprintf("bytes */%d", size)},
				headerCacheStatus: {"HIT"},
			}}, nil
		}
	}
	header := e.Header.Clone()
	if header == nil {
		header = http.Header{}
	}
	header.Set(headerCacheStatus, "HIT")
	header.Set("Age", age)

	if notModified(req.Header, header) {
		return &Response{Status: http.StatusNotModified, Header: header}, nil
	}
	switch len(ranges) {
	case 0:
		return &Response{Status: e.Status, Header: header, Body: body}, nil
	case 1:
		r := ranges[0]
		header.Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", r.Start, r.End, size))
		header.Set("Content-Length", strconv.FormatInt(r.Len(), 10))
		return &Response{Status: http.StatusPartialContent, Header: header, Body: body[r.Start : r.End+1]}, nil
	}
	boundary, err := newBoundary(rnd)
	if err != nil {
		return nil, err
	}
	multipart := multipartBody(body, ranges, boundary, header.Get("Content-Type"))
	header.Set("Content-Type", "multipart/byteranges; boundary="+boundary)
	header.Set("Content-Length", strconv.Itoa(len(multipart)))
	return &Response{Status: http.StatusPartialContent, Header: header, Body: multipart}, nil
}

// notModified applies If-None-Match (weak comparison, "*" matches any
// stored ETag) and If-Modified-Since (only strict IMF-fixdate values).
func notModified(reqHeader, resHeader http.Header) bool {
	if inm, etag := reqHeader.Get("If-None-Match"), resHeader.Get("ETag"); inm != "" && etag != "" {
		if stored, ok := parseETag(etag); ok {
			if strings.TrimSpace(inm) == "*" {
				return true
			}
			for _, candidate := range strings.Split(inm, ",") {
				if v, ok := parseETag(candidate); ok && v == stored {
					return true
				}
			}
		}
	}
	ims, lm := reqHeader.Get("If-Modified-Since"), resHeader.Get("Last-Modified")
	if ims == "" || lm == "" {
		return false
	}
	since, ok1 := parseIMFDate(ims)
	modified, ok2 := parseIMFDate(lm)
	return ok1 && ok2 && !modified.After(since)
}

var (
	etagPattern    = regexp.MustCompile(`^(W/)?"(.+)"$`)
	imfDatePattern = regexp.MustCompile(`^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d\d\d\d \d\d:\d\d:\d\d GMT$`)
)

// parseETag returns an ETag's opaque value, ignoring W/ (If-None-Match
// always compares weakly).
func parseETag(v string) (string, bool) {
	m := etagPattern.FindStringSubmatch(strings.TrimSpace(v))
	if m == nil {
		return "", false
	}
	return m[2], true
}

func parseIMFDate(v string) (time.Time, bool) {
	if !imfDatePattern.MatchString(v) {
		return time.Time{}, false
	}
	t, err := time.Parse(http.TimeFormat, v)
	return t, err == nil
}

func newBoundary(rnd io.Reader) (string, error) {
	b := make([]byte, 16)
	if _, err := io.ReadFull(rnd, b); err != nil {
		return "", fmt.Errorf("cache: generating a multipart boundary: %w", err)
	}
	return "hostsim-boundary-" + hex.EncodeToString(b), nil
}

// multipartBody lays out a multipart/byteranges body as miniflare's blob
// store does: parts separated by CRLF, each with Content-Type (when known)
// and Content-Range, then the closing boundary.
func multipartBody(body []byte, ranges []filestore.ByteRange, boundary, contentType string) []byte {
	var b bytes.Buffer
	for i, r := range ranges {
		if i > 0 {
			b.WriteString("\r\n")
		}
		fmt.Fprintf(&b, "--%s\r\n", boundary)
		if contentType != "" {
			fmt.Fprintf(&b, "Content-Type: %s\r\n", contentType)
		}
		fmt.Fprintf(&b, "Content-Range: bytes %d-%d/%d\r\n\r\n", r.Start, r.End, len(body))
		b.Write(body[r.Start : r.End+1])
	}
	fmt.Fprintf(&b, "\r\n--%s--", boundary)
	return b.Bytes()
}
