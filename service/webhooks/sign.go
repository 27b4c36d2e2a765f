package webhooks

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// Header names and values of spec 2 Delivery.
const (
	HeaderSignature = "Service-Signature"
	HeaderEvent     = "Service-Event"
	HeaderEventID   = "Service-Event-Id"
	UserAgent       = "Service-Webhooks/1.0"
	SecretPrefix    = "whsec_"
)

// Sign is the hex HMAC-SHA256 of "<t>.<body>" keyed with the whole secret,
// prefix included.
func Sign(secret string, t int64, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(strconv.FormatInt(t, 10)))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// SignatureHeader is the Service-Signature value for t and body.
func SignatureHeader(secret string, t int64, body []byte) string {
	return "t=" + strconv.FormatInt(t, 10) + ",v1=" + Sign(secret, t, body)
}

// NewSecret returns a fresh signing secret: whsec_ and 32 random bytes.
func NewSecret() string {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("webhooks: crypto/rand failed: " + err.Error())
	}
	return SecretPrefix + hex.EncodeToString(b[:])
}
