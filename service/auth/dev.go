package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// DevCookieName is the development sign-in cookie (spec 2,
// Authentication 6).
const DevCookieName = "emojisearch_dev"

// DevCookieMaxAge is how long a development sign-in lasts.
const DevCookieMaxAge = 7 * 24 * time.Hour

// maxDevLogin is the longest development login.
const maxDevLogin = 64

// Errors of development sign-in.
var (
	// ErrDevUnavailable: development sign-in is off, or the request is
	// not for localhost (the route should answer as if it did not exist).
	ErrDevUnavailable = errors.New("auth: development sign-in is not available")
	// ErrDevLogin: the login is not 1-64 characters of a-z 0-9 . _ -
	// starting with a letter or digit (400 invalid_request).
	ErrDevLogin = errors.New("auth: development login must be 1-64 characters of a-z 0-9 . _ - starting with a letter or digit")
)

// DevSignIn signs r's browser in as a local development user (GET
// /api/auth/dev?login=<name>): the login is lowercased and checked, and
// the cookie carries it with its issue time under an HMAC-SHA256. The
// caller sets the cookie on the answer.
func (a *Authenticator) DevSignIn(r *http.Request, login string) (*http.Cookie, Identity, error) {
	if !a.DevAllowed(r) {
		return nil, Identity{}, ErrDevUnavailable
	}
	login, ok := NormalizeDevLogin(login)
	if !ok {
		return nil, Identity{}, ErrDevLogin
	}
	issued := strconv.FormatInt(a.s.now().Unix(), 10)
	c := devCookie(login + "." + issued + "." + a.devMAC(login, issued))
	c.MaxAge = int(DevCookieMaxAge / time.Second)
	return c, devIdentity(login), nil
}

// DevSignOut is the cookie that clears the development sign-in (POST
// /api/auth/logout). Clearing is harmless, so it needs no checks.
func DevSignOut() *http.Cookie {
	c := devCookie("")
	c.MaxAge = -1
	return c
}

// NormalizeDevLogin lowercases login and reports whether it is 1-64
// characters of a-z 0-9 . _ - starting with a letter or digit, so the
// development email <login>@dev.localhost is well formed.
func NormalizeDevLogin(login string) (string, bool) {
	login = strings.ToLower(strings.TrimSpace(login))
	if login == "" || len(login) > maxDevLogin {
		return "", false
	}
	for i := 0; i < len(login); i++ {
		c := login[i]
		alnum := 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != '-') {
			return "", false
		}
	}
	return login, true
}

// devCookie has the attributes shared by sign-in and sign-out. Not
// Secure: local development is plain http.
func devCookie(value string) *http.Cookie {
	return &http.Cookie{
		Name:     DevCookieName,
		Value:    value,
		Path:     "/",
		HttpOnly: true,
		SameSite: http.SameSiteLaxMode,
	}
}

func devIdentity(login string) Identity {
	return Identity{
		Subject:       "dev_" + login,
		Email:         login + "@dev.localhost",
		EmailVerified: true,
		Name:          login,
	}
}

func (a *Authenticator) devMAC(login, issued string) string {
	m := hmac.New(sha256.New, a.s.devKey)
	m.Write([]byte("emojisearch-dev-v1\x00" + login + "\x00" + issued))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// verifyDevCookie checks "<login>.<issued unix>.<mac>": the MAC, the
// login's shape and the age.
func (a *Authenticator) verifyDevCookie(value string) (Identity, error) {
	rest, mac, ok := cutLast(value, ".")
	if !ok {
		return Identity{}, unauthorized("malformed development cookie")
	}
	login, issued, ok := cutLast(rest, ".")
	if !ok {
		return Identity{}, unauthorized("malformed development cookie")
	}
	if !hmac.Equal([]byte(mac), []byte(a.devMAC(login, issued))) {
		return Identity{}, unauthorized("development cookie signature")
	}
	if norm, ok := NormalizeDevLogin(login); !ok || norm != login {
		return Identity{}, unauthorized("malformed development cookie")
	}
	at, err := strconv.ParseInt(issued, 10, 64)
	if err != nil {
		return Identity{}, unauthorized("malformed development cookie")
	}
	now := a.s.now()
	t := time.Unix(at, 0)
	if t.After(now.Add(a.s.skew)) || now.Sub(t) > DevCookieMaxAge {
		return Identity{}, unauthorized("development cookie expired")
	}
	return devIdentity(login), nil
}

func cutLast(s, sep string) (before, after string, ok bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}
