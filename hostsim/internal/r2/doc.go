// Package r2 simulates an R2 bucket binding for hostsim, persisted as files:
// a raw body file per object version plus a JSON metadata file per key.
//
// It follows R2 as `wrangler dev` runs it: workerd's binding
// (src/workerd/api/r2-bucket.c++) and miniflare's bucket
// (packages/miniflare/src/workers/r2/{bucket,validator,errors}.worker.ts).
// limits.go holds the sizes, error codes and messages, validate.go and
// conditional.go the checks, store.go the bucket.
//
// Choices where Cloudflare leaves room:
//   - Multipart uploads, SHA checksums, storage classes and SSE-C are not
//     modelled; bodies are whole []byte values.
//   - An empty key is accepted, as miniflare accepts it.
//   - A Range header is given as GetOptions.RangeHeader (workerd's
//     rangeHeader) and parsed with filestore.ParseRanges against the object
//     size, shared with the Cache API like miniflare's shared/range.ts.
//   - An unparseable If-Modified-Since / If-Unmodified-Since date is refused
//     with a TypeError of our own wording; workerd leaves it to JS Date.
//   - List without Include returns objects with empty HTTPMetadata and nil
//     CustomMetadata; the JS adapter knows what it asked for.
package r2
