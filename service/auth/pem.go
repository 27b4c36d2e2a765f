package auth

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
)

// minKeyBits refuses keys too weak to trust; Clerk's instance keys are
// 2048-bit RSA.
const minKeyBits = 2048

// parsePublicKey reads Clerk's "JWT public key" (PEM, PKIX or PKCS#1).
// Environment variables often carry it on one line or with literal `\n`,
// so the body between the BEGIN and END lines is re-wrapped before
// decoding.
func parsePublicKey(s string) (*rsa.PublicKey, error) {
	block, _ := pem.Decode([]byte(normalizePEM(s)))
	if block == nil {
		return nil, errors.New("no PEM block found")
	}
	var pub any
	var err error
	switch block.Type {
	case "PUBLIC KEY":
		pub, err = x509.ParsePKIXPublicKey(block.Bytes)
	case "RSA PUBLIC KEY":
		pub, err = x509.ParsePKCS1PublicKey(block.Bytes)
	default:
		return nil, fmt.Errorf("PEM block is %q, want PUBLIC KEY", block.Type)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot parse the key: %w", err)
	}
	key, ok := pub.(*rsa.PublicKey)
	if !ok {
		return nil, fmt.Errorf("key is %T, want an RSA key", pub)
	}
	if key.N.BitLen() < minKeyBits {
		return nil, fmt.Errorf("RSA key has %d bits, want at least %d", key.N.BitLen(), minKeyBits)
	}
	return key, nil
}

// normalizePEM turns literal `\n`, one-line and indented PEMs into the
// canonical form pem.Decode needs. Anything it does not recognise is
// returned as it came, for pem.Decode to refuse.
func normalizePEM(s string) string {
	s = strings.ReplaceAll(s, `\n`, "\n")
	begin := strings.Index(s, "-----BEGIN ")
	if begin < 0 {
		return s
	}
	typeEnd := strings.Index(s[begin+len("-----BEGIN "):], "-----")
	if typeEnd < 0 {
		return s
	}
	typ := s[begin+len("-----BEGIN ") : begin+len("-----BEGIN ")+typeEnd]
	header := "-----BEGIN " + typ + "-----"
	footer := "-----END " + typ + "-----"
	bodyStart := begin + len(header)
	end := strings.Index(s[bodyStart:], footer)
	if end < 0 {
		return s
	}
	body := strings.Join(strings.Fields(s[bodyStart:bodyStart+end]), "")
	var b strings.Builder
	b.WriteString(header + "\n")
	for len(body) > 64 {
		b.WriteString(body[:64] + "\n")
		body = body[64:]
	}
	if body != "" {
		b.WriteString(body + "\n")
	}
	b.WriteString(footer + "\n")
	return b.String()
}
