package filestore

import (
	"encoding/base64"
	"strings"
)

// EncodeCursor is how miniflare's KV and R2 lists encode the key they stopped
// after: plain base64 of the key (shared/data.ts base64Encode).
func EncodeCursor(lastKey string) string {
	return base64.StdEncoding.EncodeToString([]byte(lastKey))
}

// DecodeCursor reverses EncodeCursor as leniently as Node's
// Buffer.from(cursor, "base64") does: base64url letters are accepted,
// anything outside the alphabet is skipped and decoding stops at padding.
// A cursor never makes a list fail; a garbled one just lists from elsewhere.
func DecodeCursor(cursor string) string {
	var b strings.Builder
	for _, c := range cursor {
		switch {
		case c == '=':
			return decodeRaw(b.String())
		case c == '-':
			b.WriteByte('+')
		case c == '_':
			b.WriteByte('/')
		case c == '+' || c == '/' || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z'):
			b.WriteRune(c)
		}
	}
	return decodeRaw(b.String())
}

func decodeRaw(s string) string {
	if len(s)%4 == 1 { // a lone trailing character carries no whole byte
		s = s[:len(s)-1]
	}
	// Every character is in the alphabet and the length is decodable, so
	// this cannot fail (the non-strict decoder ignores stray trailing bits).
	out, _ := base64.RawStdEncoding.DecodeString(s)
	return string(out)
}
