// Package kv simulates a Workers KV namespace for hostsim, persisted as files
// in one directory per namespace (see package filestore for the layout).
//
// It follows KV as `wrangler dev` runs it: workerd's own checks
// (src/workerd/api/kv.c++) and miniflare's KV service
// (packages/miniflare/src/workers/kv/). limits.go holds the sizes and the
// exact messages, validate.go the checks, store.go the namespace.
//
// Choices where Cloudflare leaves room:
//   - Reads are strongly consistent, as locally; production KV is eventually
//     consistent (up to 60 s), which this simulator does not model.
//   - Key names are checked by workerd first, so an empty key or "." gives
//     workerd's TypeError text ("Key name cannot be empty."), not miniflare's.
//   - A list limit of 0 or less means 1000: workerd does not send it at all.
//   - PutOptions fields use 0 for "not given"; an explicit expirationTtl of 0,
//     which Cloudflare refuses, has to be refused by the JS adapter.
//   - cacheTtl on get is not modelled: with one "edge location" it has no
//     effect locally, and miniflare only range-checks it.
package kv
