package r2

// Limits of an R2 bucket, from Cloudflare's R2 limits page as miniflare
// encodes them (packages/miniflare/src/workers/r2/constants.ts, R2Limits).
const (
	// MaxKeySize is the longest object key in UTF-8 bytes.
	MaxKeySize = 1024
	// MaxValueSize is the largest single-part object: 5 GiB - 5 MiB.
	MaxValueSize = 5_368_709_120 - 5_242_880
	// MaxMetadataSize bounds customMetadata, counted as R2 does (see
	// metadataSize in validate.go).
	MaxMetadataSize = 2048
	// MaxListKeys is list()'s default and largest limit.
	MaxListKeys = 1000
	// MaxListKeysWithInclude is the page size when metadata is included: R2
	// may return fewer objects then, and miniflare simulates that with 100.
	MaxListKeysWithInclude = 100
)

// R2's v4 error codes (errors.worker.ts R2ErrorCode). JS code sees them at
// the end of err.message and in err.code.
const (
	CodeEntityTooLarge    = 100100
	CodeMetadataTooLarge  = 10012
	CodeInvalidObjectName = 10020
	CodeInvalidMaxKeys    = 10022
	CodeBadDigest         = 10037
	CodeInvalidRange      = 10039
)

// Messages of R2's service errors, word for word (errors.worker.ts).
const (
	msgEntityTooLarge    = "Your proposed upload exceeds the maximum allowed object size."
	msgMetadataTooLarge  = "Your metadata headers exceed the maximum allowed metadata size."
	msgInvalidObjectName = "The specified object name is not valid."
	msgInvalidMaxKeys    = "MaxKeys params must be positive integer <= 1000."
	msgInvalidRange      = "The requested range is not satisfiable"
	msgBadDigest         = "The MD5 checksum you specified did not match what we received.\nYou provided a MD5 checksum with value: %x\nActual MD5 was: %x"
	msgServiceError      = "%s: %s (%d)"
)

// Messages workerd throws before calling R2 (src/workerd/api/r2-bucket.c++).
const (
	msgOffsetNegative     = "Invalid range. Starting offset (%d) must be greater than or equal to 0."
	msgLengthNegative     = "Invalid range. Length (%d) must be greater than or equal to 0."
	msgSuffixWithOffset   = "Suffix is incompatible with offset."
	msgSuffixWithLength   = "Suffix is incompatible with length."
	msgSuffixNegative     = "Invalid suffix. Suffix (%d) must be greater than or equal to 0."
	msgMD5Length          = "MD5 is 16 bytes, not %d"
	msgUnsupportedInclude = "Unsupported include value %s"
	msgQuotedETag         = "Conditional ETag should not be wrapped in quotes (%s)."
	msgETagComma          = "Comma was expected to separate etags. %s"
	msgETagCommaWildcard  = "Encountered a wildcard character '*' instead."
	msgETagCommaQuote     = "Encountered a double quote character '\"' instead. This would otherwise indicate the start of a new strong etag."
	msgETagCommaWeak      = "Encountered a weak quotation character 'W' instead. This would otherwise indicate the start of a new weak etag."
	msgETagUnclosed       = "Unclosed double quote for Etag"
	msgETagWeakSyntax     = "Weak etags must start with W/ and their value must be quoted"
	// msgBadDate is ours: workerd hands the header to JS Date parsing.
	msgBadDate = "Invalid date in %s header: %q"
)

// JS classes of thrown errors.
const (
	jsR2Error    = "R2Error"
	jsTypeError  = "TypeError"
	jsRangeError = "RangeError"
	jsError      = "Error"
)

// Include values for list().
const (
	IncludeHTTPMetadata   = "httpMetadata"
	IncludeCustomMetadata = "customMetadata"
)
