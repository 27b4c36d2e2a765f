package access

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/emojisearch/emojisearch/service/apikey"
	"github.com/emojisearch/emojisearch/service/httpx"
)

// KeyRecord is what the key store knows about one key.
type KeyRecord struct {
	KeyID          string
	AppID          string
	AccountID      string
	Kind           string // apikey.Publishable or apikey.Secret
	AllowedOrigins []string
	Revoked        bool
	AppEnvironment string // EnvDevelopment or EnvProduction
	Plan           string // the owning account's plan
}

// KeyStore looks keys up by their stored hash (apikey.Hash). found is false
// for an unknown key; err is for a store that cannot be read.
type KeyStore interface {
	LookupKey(ctx context.Context, hash string) (rec KeyRecord, found bool, err error)
}

// Defaults of spec 1 (Authentication rule 4) and of the cache bounds.
const (
	DefaultCacheTTL = 60 * time.Second
	// DefaultCacheSize bounds the known keys kept per instance; unknown keys
	// get a quarter of it in their own LRU.
	DefaultCacheSize = 10_000
)

// Config of a Resolver: an immutable value, each With… returns a copy, and
// NewResolver checks it.
type Config struct {
	store     KeyStore
	devKeys   []string
	now       func() time.Time
	ttl       time.Duration
	cacheSize int
}

// NewConfig returns the default configuration over store.
func NewConfig(store KeyStore) Config {
	return Config{store: store, now: time.Now, ttl: DefaultCacheTTL, cacheSize: DefaultCacheSize}
}

// WithDevKeys sets the development keys (full keys, see ParseDevKeys).
func (c Config) WithDevKeys(keys ...string) Config {
	c.devKeys = append([]string(nil), keys...)
	return c
}

// WithClock sets the clock, so tests move time instead of sleeping.
func (c Config) WithClock(now func() time.Time) Config {
	c.now = now
	return c
}

// WithCacheTTL sets how long a lookup is reused.
func (c Config) WithCacheTTL(d time.Duration) Config {
	c.ttl = d
	return c
}

// WithCacheSize bounds the number of known keys cached.
func (c Config) WithCacheSize(n int) Config {
	c.cacheSize = n
	return c
}

// ParseDevKeys splits a DEV_KEYS value: keys separated by commas or white
// space.
func ParseDevKeys(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r'
	})
}

// Resolver turns a request's key into a Caller. It is safe for concurrent
// use and is meant to live as long as the instance, with its cache.
type Resolver struct {
	store   KeyStore
	now     func() time.Time
	dev     map[string]KeyRecord // by hash
	known   *lru
	unknown *lru
}

// NewResolver checks c and returns a Resolver, reporting every problem of
// the configuration at once. Dev keys are named by position only, never
// by value.
func NewResolver(c Config) (*Resolver, error) {
	var errs []error
	if c.store == nil {
		errs = append(errs, errors.New("access: no key store"))
	}
	if c.now == nil {
		errs = append(errs, errors.New("access: no clock"))
	}
	if c.ttl <= 0 {
		errs = append(errs, fmt.Errorf("access: cache TTL %v is not positive", c.ttl))
	}
	if c.cacheSize < 4 {
		errs = append(errs, fmt.Errorf("access: cache size %d is below 4", c.cacheSize))
	}
	dev := make(map[string]KeyRecord, len(c.devKeys))
	for i, k := range c.devKeys {
		kind, ok := apikey.KindOf(k)
		if !ok {
			errs = append(errs, fmt.Errorf("access: development key %d of %d is malformed", i+1, len(c.devKeys)))
			continue
		}
		h := apikey.Hash(k)
		dev[h] = KeyRecord{KeyID: "dev_" + h[:12], Kind: kind, AppEnvironment: EnvDevelopment}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return &Resolver{
		store:   c.store,
		now:     c.now,
		dev:     dev,
		known:   newLRU(c.cacheSize, c.ttl),
		unknown: newLRU(c.cacheSize/4, c.ttl),
	}, nil
}

// Resolve applies spec 1's Authentication table to r. It returns a *Error
// (one of this package's sentinels) for a refusal, and an anonymous Caller
// when there is no key or the key store cannot be read.
func (s *Resolver) Resolve(r *http.Request) (Caller, error) {
	full, kind, err := keyOf(r)
	if err != nil {
		return Caller{}, err
	}
	if full == "" {
		return Caller{Anonymous: true, AnonReason: AnonNoKey}, nil
	}
	hash := apikey.Hash(full)
	if rec, ok := s.dev[hash]; ok {
		// Development keys have no app row and no origin list.
		return Caller{Dev: true, KeyID: rec.KeyID, Kind: kind, Environment: EnvDevelopment}, nil
	}
	rec, found, err := s.lookup(r.Context(), hash)
	if err != nil {
		return Caller{Anonymous: true, AnonReason: AnonStoreUnavailable}, nil
	}
	switch {
	case !found, rec.Kind != kind: // a kind that disagrees with the prefix is a broken row: fail closed
		return Caller{}, ErrUnknownKey
	case rec.Revoked:
		return Caller{}, ErrRevokedKey
	}
	if kind == apikey.Publishable {
		if err := checkOrigin(r, rec); err != nil {
			return Caller{}, err
		}
	}
	env := rec.AppEnvironment
	if env != EnvDevelopment {
		env = EnvProduction
	}
	return Caller{
		KeyID:       rec.KeyID,
		AppID:       rec.AppID,
		AccountID:   rec.AccountID,
		Kind:        kind,
		Plan:        rec.Plan,
		Environment: env,
	}, nil
}

// keyOf finds the key of r and checks where it was sent, before any I/O.
// An empty full key means anonymous.
func keyOf(r *http.Request) (full, kind string, err error) {
	params := httpx.Query(r)["key"]
	var query string
	for _, p := range params {
		if strings.HasPrefix(p, apikey.SecretPrefix) {
			return "", "", ErrSecretInURL
		}
		if p != "" {
			if query != "" {
				return "", "", ErrTwoKeys
			}
			query = p
		}
	}
	auth, hasAuth := r.Header["Authorization"]
	_, hasOrigin := r.Header["Origin"]
	if hasAuth {
		if query != "" {
			return "", "", ErrTwoKeys
		}
		token, ok := bearer(auth)
		if !ok {
			return "", "", ErrBadAuthorization
		}
		kind, ok := apikey.KindOf(token)
		switch {
		case kind == apikey.Publishable:
			return "", "", ErrPublishableAsBearer
		case !ok:
			return "", "", ErrMalformedKey
		case hasOrigin:
			return "", "", ErrSecretWithOrigin
		}
		return token, kind, nil
	}
	if query == "" {
		return "", "", nil
	}
	kind, ok := apikey.KindOf(query)
	if !ok {
		return "", "", ErrMalformedKey
	}
	return query, kind, nil
}

// bearer returns the key of exactly one `Bearer <key>` header value. The
// scheme is case-insensitive (RFC 9110, 11.1); the key has no spaces.
func bearer(values []string) (string, bool) {
	if len(values) != 1 {
		return "", false
	}
	scheme, token, ok := strings.Cut(values[0], " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimLeft(token, " ")
	if token == "" || strings.ContainsAny(token, " \t") {
		return "", false
	}
	return token, true
}

// lookup answers from the cache, then the store. Store errors are not
// cached: the next request tries again.
func (s *Resolver) lookup(ctx context.Context, hash string) (KeyRecord, bool, error) {
	now := s.now()
	if rec, ok := s.known.get(hash, now); ok {
		return rec, true, nil
	}
	if _, ok := s.unknown.get(hash, now); ok {
		return KeyRecord{}, false, nil
	}
	rec, found, err := s.store.LookupKey(ctx, hash)
	if err != nil {
		return KeyRecord{}, false, err
	}
	// Stamped with the time the lookup began, so an entry is never reused
	// longer than the TTL after the store was asked.
	if found {
		rec.AllowedOrigins = append([]string(nil), rec.AllowedOrigins...)
		s.known.put(hash, rec, now)
	} else {
		s.unknown.put(hash, KeyRecord{}, now)
	}
	return rec, found, nil
}
