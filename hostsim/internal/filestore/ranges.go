package filestore

import (
	"math"
	"strconv"
	"strings"
)

// ByteRange is an inclusive span [Start, End] of a stored value, the unit of
// ranged reads for R2 objects and cached responses.
type ByteRange struct {
	Start, End int64
}

// Len is the number of bytes the range covers.
func (r ByteRange) Len() int64 { return r.End - r.Start + 1 }

// ParseRanges reads an HTTP Range header for a value of size bytes exactly as
// miniflare's shared parseRanges does (packages/miniflare/src/workers/shared/
// range.ts), so R2's rangeHeader and the Cache API agree with `wrangler dev`:
//
//   - ok == false: the header is not satisfiable (unit other than bytes, bad
//     syntax, start after end, or start at/after the end of the value);
//   - ok == true with no ranges: serve the whole value ("bytes=", a suffix at
//     least as long as the value, or only zero-length suffixes);
//   - otherwise the ranges to serve, each end clamped to the value.
//
// For example ParseRanges("bytes=0-9, -5", 100) is [{0 9} {95 99}].
func ParseRanges(header string, size int64) (ranges []ByteRange, ok bool) {
	rest, ok := cutBytesUnit(header)
	if !ok {
		return nil, false
	}
	if strings.TrimLeft(rest, " \t\n\r\v\f") == "" {
		return nil, true
	}
	var result []ByteRange
	for _, spec := range strings.Split(rest, ",") {
		startText, endText, ok := splitRangeSpec(spec)
		if !ok {
			return nil, false
		}
		switch {
		case startText != "" && endText != "":
			start, end := parseDigits(startText), parseDigits(endText)
			if start > end || start >= size {
				return nil, false
			}
			result = append(result, ByteRange{start, min(end, size-1)})
		case startText != "":
			start := parseDigits(startText)
			if start >= size {
				return nil, false
			}
			result = append(result, ByteRange{start, size - 1})
		case endText != "":
			suffix := parseDigits(endText)
			if suffix >= size {
				return nil, true // the whole value
			}
			if suffix == 0 {
				continue
			}
			result = append(result, ByteRange{size - suffix, size - 1})
		default:
			return nil, false
		}
	}
	return result, true
}

// cutBytesUnit strips `^ *bytes *=` (unit case-insensitive).
func cutBytesUnit(header string) (string, bool) {
	s := strings.TrimLeft(header, " ")
	if len(s) < len("bytes") || !strings.EqualFold(s[:len("bytes")], "bytes") {
		return "", false
	}
	s = strings.TrimLeft(s[len("bytes"):], " ")
	if !strings.HasPrefix(s, "=") {
		return "", false
	}
	return s[1:], true
}

// splitRangeSpec matches `^ *(\d+)? *- *(\d+)? *$` and returns the digits.
func splitRangeSpec(spec string) (start, end string, ok bool) {
	before, after, found := strings.Cut(spec, "-")
	if !found {
		return "", "", false
	}
	start, end = strings.Trim(before, " "), strings.Trim(after, " ")
	return start, end, isDigits(start) && isDigits(end)
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// parseDigits parses a run of ASCII digits; numbers too large for int64
// saturate, which keeps every comparison above meaningful.
func parseDigits(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return math.MaxInt64
	}
	return n
}
