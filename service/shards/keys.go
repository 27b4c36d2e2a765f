// Package shards builds and serves the nightly precomputed results (spec 1,
// Static files rule 6): the queries that apps of at least 3 accounts
// searched at least 10 times over the last 6 complete UTC days, and that
// do not look like personal data, answered by the service's own hybrid
// search and written to R2 as shard files and index.json under the pack
// version; GET /p/:packVersion/… serves them through the edge cache.
//
// The key scheme (packs/FORMAT.md, "Result shards") is what the client's
// shardKeyFor computes: a shard key is the locale, or the locale, "-" and
// a prefix of the 8 hex digits of FNV-1a 32 of the normalized query. A
// locale's keys are prefix-free, so a query matches at most one key; a
// shard over MaxShardBytes splits into its 16 longer prefixes.
package shards

import (
	"hash/fnv"
	"strconv"
)

// MaxShardBytes bounds a shard file: one fetch of a client stays small.
const MaxShardBytes = 64 << 10

// maxPrefix is the longest hash prefix (all 8 hex digits).
const maxPrefix = 8

// Hash is FNV-1a 32 of the UTF-8 bytes of the normalized query, as 8
// lowercase hex digits.
func Hash(query string) string {
	h := fnv.New32a()
	_, _ = h.Write([]byte(query))
	s := strconv.FormatUint(uint64(h.Sum32()), 16)
	for len(s) < maxPrefix {
		s = "0" + s
	}
	return s
}

// Key names the shard of a locale and hash prefix.
func Key(locale, prefix string) string {
	if prefix == "" {
		return locale
	}
	return locale + "-" + prefix
}

// KeyFor is the reference of the client's shardKeyFor: the key of keys
// (index.json's list) that holds the normalized query in locale, or ""
// when no shard can hold it.
func KeyFor(keys map[string]bool, locale, query string) string {
	h := Hash(query)
	for n := 0; n <= maxPrefix; n++ {
		if k := Key(locale, h[:n]); keys[k] {
			return k
		}
	}
	return ""
}

// ValidKey reports whether name could be a shard key: a two-letter locale,
// optionally "-" and 1 to 8 lowercase hex digits. The server checks it
// before any read, so a request never names an arbitrary object.
func ValidKey(name string) bool {
	if len(name) < 2 || !lower(name[0]) || !lower(name[1]) {
		return false
	}
	if len(name) == 2 {
		return true
	}
	if name[2] != '-' || len(name) < 4 || len(name) > 3+maxPrefix {
		return false
	}
	for i := 3; i < len(name); i++ {
		if c := name[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func lower(c byte) bool { return c >= 'a' && c <= 'z' }
