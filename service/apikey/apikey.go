// Package apikey is the API key format (spec 1 Authentication; key length
// and generation are "not shown" there, so they are ours): a kind prefix
// (pk_live_ publishable, sk_live_ secret) and 32 base62 characters from
// crypto/rand, about 190 bits. Only a SHA-256 hash of a key is stored; the
// full key is shown once, at creation.
package apikey

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
)

// Kinds of key.
const (
	Publishable = "publishable"
	Secret      = "secret"
)

// Prefixes of spec 1.
const (
	PublishablePrefix = "pk_live_"
	SecretPrefix      = "sk_live_"
)

const (
	bodyLen  = 32
	alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	// hintLen is how much of a key the dashboard shows after creation
	// (prefix plus four characters), enough to tell keys apart.
	hintLen = 12
)

// ErrKind is returned for a kind other than Publishable or Secret.
var ErrKind = errors.New("apikey: unknown kind")

// Key is a freshly generated key.
type Key struct {
	Full string // shown once
	Hash string // stored and looked up
	Hint string // stored and shown, e.g. "pk_live_4fQx"
	Kind string
}

// New generates a key of the kind.
func New(kind string) (Key, error) {
	prefix, ok := prefixOf(kind)
	if !ok {
		return Key{}, ErrKind
	}
	var b [bodyLen]byte
	if _, err := rand.Read(b[:]); err != nil {
		return Key{}, err
	}
	body := make([]byte, bodyLen)
	for i, v := range b {
		// 256 % 62 != 0 skews by < 1 %: negligible against 190 bits.
		body[i] = alphabet[int(v)%len(alphabet)]
	}
	full := prefix + string(body)
	return Key{Full: full, Hash: Hash(full), Hint: full[:hintLen], Kind: kind}, nil
}

// Hash is the stored form of a key.
func Hash(full string) string {
	sum := sha256.Sum256([]byte(full))
	return hex.EncodeToString(sum[:])
}

// KindOf reports the kind a key's prefix names and whether its shape is
// well formed (prefix plus 32 base62 characters).
func KindOf(full string) (string, bool) {
	var kind string
	switch {
	case strings.HasPrefix(full, PublishablePrefix):
		kind = Publishable
	case strings.HasPrefix(full, SecretPrefix):
		kind = Secret
	default:
		return "", false
	}
	body := full[len(PublishablePrefix):]
	if len(body) != bodyLen {
		return kind, false
	}
	for i := 0; i < len(body); i++ {
		if !strings.ContainsRune(alphabet, rune(body[i])) {
			return kind, false
		}
	}
	return kind, true
}

func prefixOf(kind string) (string, bool) {
	switch kind {
	case Publishable:
		return PublishablePrefix, true
	case Secret:
		return SecretPrefix, true
	}
	return "", false
}
