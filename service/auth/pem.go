package auth

import (
	"crypto/rsa"
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
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
	var key *rsa.PublicKey
	var err error
	switch block.Type {
	case "PUBLIC KEY":
		key, err = parsePKIX(block.Bytes)
	case "RSA PUBLIC KEY":
		key, err = parsePKCS1(block.Bytes)
	default:
		return nil, fmt.Errorf("PEM block is %q, want PUBLIC KEY", block.Type)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot parse the key: %w", err)
	}
	if key.N.BitLen() < minKeyBits {
		return nil, fmt.Errorf("RSA key has %d bits, want at least %d", key.N.BitLen(), minKeyBits)
	}
	return key, nil
}

// The two key encodings, read with encoding/asn1 rather than crypto/x509:
// x509 reaches every key type it can parse (ECDSA and Ed25519 with their
// curves), about 60 KB gzip of the Worker for a key that is always RSA.
type (
	// subjectPublicKeyInfo is PKIX's (RFC 5280, "PUBLIC KEY").
	subjectPublicKeyInfo struct {
		Algorithm struct {
			Algorithm  asn1.ObjectIdentifier
			Parameters asn1.RawValue `asn1:"optional"`
		}
		PublicKey asn1.BitString
	}
	// pkcs1PublicKey is RFC 8017's RSAPublicKey ("RSA PUBLIC KEY").
	pkcs1PublicKey struct {
		N *big.Int
		E int
	}
)

// oidRSA is rsaEncryption (RFC 8017, A.1).
var oidRSA = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 1}

func parsePKIX(der []byte) (*rsa.PublicKey, error) {
	var spki subjectPublicKeyInfo
	if rest, err := asn1.Unmarshal(der, &spki); err != nil {
		return nil, err
	} else if len(rest) > 0 {
		return nil, errors.New("trailing data after the key")
	}
	if !spki.Algorithm.Algorithm.Equal(oidRSA) {
		return nil, fmt.Errorf("key algorithm %v, want an RSA key", spki.Algorithm.Algorithm)
	}
	return parsePKCS1(spki.PublicKey.RightAlign())
}

func parsePKCS1(der []byte) (*rsa.PublicKey, error) {
	var k pkcs1PublicKey
	if rest, err := asn1.Unmarshal(der, &k); err != nil {
		return nil, err
	} else if len(rest) > 0 {
		return nil, errors.New("trailing data after the key")
	}
	if k.N == nil || k.N.Sign() <= 0 || k.E < 3 || k.E&1 == 0 {
		return nil, errors.New("not a valid RSA public key")
	}
	return &rsa.PublicKey{N: k.N, E: k.E}, nil
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
