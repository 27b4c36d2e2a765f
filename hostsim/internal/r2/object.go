package r2

import "time"

// Object is an R2 object's metadata (R2Object in workers-types).
type Object struct {
	Key string
	// Version is a random hex id, new on every put.
	Version string
	Size    int64
	// ETag is the MD5 of the body in hex; HTTPETag is the same quoted.
	ETag     string
	HTTPETag string
	// Uploaded is when the put happened, at millisecond precision.
	Uploaded       time.Time
	HTTPMetadata   HTTPMetadata
	CustomMetadata map[string]string
	// Range is the part of the body a get or head returned: always set by
	// Get and Head ({0, Size} for the whole object), nil from Put and List.
	Range *Range
}

// HTTPMetadata are the HTTP headers stored with an object
// (R2HTTPMetadata). Empty strings are not set.
type HTTPMetadata struct {
	ContentType        string     `json:"contentType,omitempty"`
	ContentLanguage    string     `json:"contentLanguage,omitempty"`
	ContentDisposition string     `json:"contentDisposition,omitempty"`
	ContentEncoding    string     `json:"contentEncoding,omitempty"`
	CacheControl       string     `json:"cacheControl,omitempty"`
	CacheExpiry        *time.Time `json:"cacheExpiry,omitempty"`
}

// Range selects part of an object (R2Range): Offset and/or Length, or a
// Suffix of the last bytes. Unset fields are nil.
type Range struct {
	Offset *int64
	Length *int64
	Suffix *int64
}

// PutOptions mirror R2PutOptions.
type PutOptions struct {
	HTTPMetadata   HTTPMetadata
	CustomMetadata map[string]string
	// OnlyIf makes the put conditional; when it fails Put returns a nil
	// object and stores nothing.
	OnlyIf *Conditional
	// MD5, when set, must be the 16-byte MD5 of the body.
	MD5 []byte
}

// GetOptions mirror R2GetOptions.
type GetOptions struct {
	// OnlyIf makes the body conditional; when it fails Get returns the
	// object without a body.
	OnlyIf *Conditional
	// Range selects part of the body.
	Range *Range
	// RangeHeader is an HTTP Range header value ("bytes=0-99"), what workerd
	// sends when range is given as Headers. It wins over Range. Unlike Range
	// it never fails: a bad, unsatisfiable or multi-range header returns the
	// whole object, as R2 (and miniflare) do.
	RangeHeader string
}

// ListOptions mirror R2ListOptions.
type ListOptions struct {
	Prefix string
	// Delimiter groups keys sharing the part after Prefix up to it into
	// DelimitedPrefixes.
	Delimiter string
	// Cursor continues a truncated list.
	Cursor string
	// StartAfter lists keys after this one (the cursor wins when later).
	StartAfter string
	// Limit is 1 to 1000; 0 means 1000. With Include, at most 100 come back.
	Limit int
	// Include asks for "httpMetadata" and/or "customMetadata"; without it
	// listed objects carry neither.
	Include []string
}

// ListResult is one page of a listing (R2Objects).
type ListResult struct {
	Objects           []*Object
	DelimitedPrefixes []string
	// Truncated says more results follow; Cursor continues from here.
	Truncated bool
	Cursor    string
}
