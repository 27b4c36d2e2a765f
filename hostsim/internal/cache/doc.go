// Package cache simulates the Workers Cache API (caches.default and
// caches.open(name)) for hostsim, persisted as files: one directory per
// cache, one file per URL (see package filestore).
//
// It follows the Cache API as `wrangler dev` runs it: workerd's checks
// (src/workerd/api/cache.c++) and miniflare's shared-cache service
// (packages/miniflare/src/workers/cache/cache.worker.ts, which judges
// responses with http-cache-semantics). limits.go holds the messages and
// status lists, validate.go workerd's checks, policy.go what is cacheable
// and for how long, match.go how a hit is answered, store.go the caches.
//
// Choices where Cloudflare leaves room or miniflare is quirky:
//   - Vary (other than "*", which put refuses) is ignored: the key is the URL
//     alone, as in miniflare. cf.cacheKey is not modelled.
//   - Age is computed at match time (age at put + time in cache); miniflare
//     returns the age frozen at put, usually "0".
//   - Cache-Control directive names are matched case-insensitively
//     (RFC 9111); http-cache-semantics compares them as written.
//   - After `private=set-cookie` is stripped, the stored Cache-Control is
//     rewritten tidily ("public, max-age=60"); miniflare stores the
//     lower-cased remainder with its dangling comma.
//   - A non-numeric max-age/s-maxage means "not stored"; miniflare would
//     compute a NaN expiration.
//   - A multipart/byteranges answer gets a correct Content-Length and a
//     "hostsim-boundary-…" boundary.
package cache
