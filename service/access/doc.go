// Package access decides who is calling a /v1 route and whether the call
// may go on (spec 1, Authentication and Limits): it resolves the API key of
// a request to a Caller, refuses what the spec refuses with 401 or 403, and
// applies the per-minute rate limits with 429.
//
// Decisions the spec leaves open, and why:
//
//   - A publishable key needs an Origin header that matches one of its
//     allowed origins. A request without Origin is refused (403): the spec
//     says the Origin must match, and a missing one matches nothing. Tools
//     without a browser use a secret key or no key at all.
//   - An empty allowed-origin list allows any origin, and also no Origin,
//     but only for keys of development apps. A production key with an empty
//     list is refused on every request (403): the dashboard must not create
//     one, and failing closed keeps a misconfigured key from being usable on
//     any website. An app environment other than "development" counts as
//     production.
//   - Origins compare exactly by scheme, host and port, lowercased, with the
//     scheme's default port dropped and a bare trailing "/" ignored. There are
//     no wildcards. Origin "null" (sandboxed frames, file://) matches nothing.
//   - A publishable key sent as `Authorization: Bearer` is refused (403), as
//     a secret key in the URL is: each kind has one place to be sent.
//   - Two keys in one request (two `key` parameters, or a `key` parameter and
//     an Authorization header) are refused (401) rather than guessed between.
//   - An empty `key=` parameter counts as no key.
//   - Development keys (DEV_KEYS) are matched before the store, so they work
//     while it is down. A development publishable key allows any origin,
//     like a development app with an empty list; a development secret key
//     keeps the secret-key rules (no Origin, not in the URL). They are rate
//     limited as keys, under the id "dev_" + 12 hex digits of their hash.
//   - A secret key in the URL is refused (403) before anything else is
//     checked, even when it is malformed or unknown, so the caller learns that
//     the key leaked.
//   - Only fresh cache entries (at most the TTL, 60 s, old) count as "in the
//     cache". When the key store cannot be read, an expired entry is not
//     reused: the call is served as anonymous, so a revoked key never works
//     longer than the TTL.
//   - Concurrent misses for the same key each ask the store: waiting for
//     another request's lookup would hold a lock or channel across an await
//     (see FACTS.md, one Go instance per isolate).
//   - Unknown keys are cached too (negative entries), in their own smaller
//     LRU, so a flood of random keys cannot evict the keys in use.
//   - A caller served as anonymous because the key store failed gets the
//     anonymous rate limit, as the spec's "served as anonymous" says.
//   - The client IP is CF-Connecting-IP, which Cloudflare always sets and
//     overwrites. When it is absent or not an IP address (local runs, tests)
//     the host of RemoteAddr is used, else "unknown": every such request
//     shares one bucket. X-Forwarded-For is never trusted.
//   - A rate limiter that fails lets the call through: a broken binding must
//     not take the search service down, and the Origin check and metering
//     still apply.
//
// Errors never contain the key, the client IP or any query text.
package access
