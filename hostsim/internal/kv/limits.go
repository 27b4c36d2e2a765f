package kv

// Limits of a KV namespace, from Cloudflare's KV limits page and miniflare's
// packages/miniflare/src/workers/kv/constants.ts (KVLimits). Reviewing
// fidelity means reviewing this file.
const (
	// MaxKeySize is the longest key name in UTF-8 bytes.
	MaxKeySize = 512
	// MaxValueSize is the largest value (25 MiB).
	MaxValueSize = 25 * 1024 * 1024
	// MaxMetadataSize is the largest metadata, measured as serialised JSON.
	MaxMetadataSize = 1024
	// MinExpirationTTL is the shortest expirationTtl, and how far in the future
	// an absolute expiration must be, in seconds.
	MinExpirationTTL = 60
	// MaxListKeys is list()'s default and largest limit.
	MaxListKeys = 1000
)

// Messages, word for word as JS code sees them in err.message. Key-name
// checks run in workerd itself (src/workerd/api/kv.c++ validateKeyName) and
// throw before any request; the others come from miniflare's KV service
// (validator.worker.ts, namespace.worker.ts) and reach JS wrapped by workerd's
// checkForErrorStatus as "KV <METHOD> failed: <status> <message>". list()
// reports its failures as "GET", like workerd.
const (
	msgEmptyKey          = "Key name cannot be empty."
	msgIllegalKey        = "%q is not allowed as a key name."
	msgServiceFailed     = "KV %s failed: %d %s"
	msgKeyTooLong        = "UTF-8 encoded length of %d exceeds key length limit of %d."
	msgTTLNotPositive    = "Invalid expiration_ttl of %d. Please specify integer greater than 0."
	msgTTLTooShort       = "Invalid expiration_ttl of %d. Expiration TTL must be at least %d."
	msgExpirationPast    = "Invalid expiration of %d. Please specify integer greater than the current number of seconds since the UNIX epoch."
	msgExpirationTooSoon = "Invalid expiration of %d. Expiration times must be at least %d seconds in the future."
	msgMetadataTooLarge  = "Metadata length of %d exceeds limit of %d."
	msgValueTooLarge     = "Value length of %d exceeds limit of %d."
	msgListLimitTooLarge = "Invalid key_count_limit of %d. Please specify an integer less than %d."
	// msgMetadataNotJSON has no Cloudflare twin: JS metadata is always
	// serialisable. It guards Go callers that pass raw bytes.
	msgMetadataNotJSON = "KV put() metadata must be valid JSON."
)

// HTTP statuses of the KV service answers above, and workerd's method labels.
const (
	statusBadRequest = 400
	statusTooLarge   = 413
	statusURITooLong = 414
	methodGet        = "GET"
	methodPut        = "PUT"
	methodDelete     = "DELETE"
)
