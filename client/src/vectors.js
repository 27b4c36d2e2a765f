// Vector files (packs/FORMAT.md "Vector files"; Go: engine/vectors).
const MAGIC = 'EMBV'
let crcTable
function crc32(b) {
  if (!crcTable) {
    crcTable = new Int32Array(256)
    for (let n = 0; n < 256; n++) { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; crcTable[n] = c }
  }
  let c = -1
  for (let i = 0; i < b.length; i++) c = crcTable[(c ^ b[i]) & 255] ^ (c >>> 8)
  return (c ^ -1) >>> 0
}
const td = new TextDecoder()
const te = new TextEncoder()

/** decodeVectors reads a vector file (ArrayBuffer or Uint8Array): {model, dims, ids, rows (Float32Array, n*dims)}. */
export function decodeVectors(buffer) {
  const b = buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer)
  const bad = (m) => { throw new TypeError('emojisearch: bad vector file: ' + m) }
  if (b.length < 24 || td.decode(b.subarray(0, 4)) !== MAGIC) bad('magic')
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength)
  if (crc32(b.subarray(0, b.length - 4)) !== dv.getUint32(b.length - 4, true)) bad('checksum')
  if (dv.getUint16(4, true) !== 1) bad('format version')
  const flags = dv.getUint16(6, true)
  if (flags & ~1) bad('flags')
  const dims = dv.getUint32(8, true), n = dv.getUint32(12, true)
  const ml = b[16]
  const model = td.decode(b.subarray(17, 17 + ml))
  const m = /^(.+)@(\d+)$/.exec(model)
  if (!m || +m[2] !== dims) bad('model ' + model)
  let p = 17 + ml
  const need = (k) => { if (p + k > b.length - 4) bad('size') }
  need(4 * (n + 1))
  const offs = []
  for (let i = 0; i <= n; i++) offs.push(dv.getUint32(p + 4 * i, true))
  p += 4 * (n + 1)
  need(offs[n])
  const ids = []
  const seen = new Set()
  for (let i = 0; i < n; i++) {
    if (offs[i] >= offs[i + 1]) bad('ids')
    const id = td.decode(b.subarray(p + offs[i], p + offs[i + 1]))
    if (!(i > 0 && flags & 1 && id === ids[i - 1])) { if (seen.has(id)) bad('duplicate id ' + id); seen.add(id) }
    ids.push(id)
  }
  p += offs[n]
  need(4 * n + n * dims)
  if (p + 4 * n + n * dims !== b.length - 4) bad('size')
  const rows = new Float32Array(n * dims)
  for (let i = 0; i < n; i++) {
    const s = dv.getFloat32(p + 4 * i, true)
    if (!Number.isFinite(s) || s < 0) bad('scale')
    const base = p + 4 * n + i * dims
    for (let d = 0; d < dims; d++) rows[i * dims + d] = Math.fround(((b[base + d] << 24) >> 24) * s)
  }
  return { model, dims, ids, rows }
}

/** encodeVectors writes a vector file (int8 rows with a float32 scale per row). */
export function encodeVectors(model, ids, rows) {
  const m = /^(.+)@(\d+)$/.exec(model)
  if (!m) throw new TypeError('emojisearch: model must be <model_key>@<dims>')
  const dims = +m[2]
  if (ids.length !== rows.length) throw new TypeError('emojisearch: one row per id')
  const idb = ids.map((s) => te.encode(s))
  const mb = te.encode(model)
  const idLen = idb.reduce((a, x) => a + x.length, 0)
  const size = 17 + mb.length + 4 * (ids.length + 1) + idLen + 4 * ids.length + ids.length * dims + 4
  const b = new Uint8Array(size)
  const dv = new DataView(b.buffer)
  b.set(te.encode(MAGIC))
  dv.setUint16(4, 1, true)
  dv.setUint16(6, ids.some((id, i) => i > 0 && id === ids[i - 1]) ? 1 : 0, true)
  dv.setUint32(8, dims, true)
  dv.setUint32(12, ids.length, true)
  b[16] = mb.length
  b.set(mb, 17)
  let p = 17 + mb.length, off = 0
  dv.setUint32(p, 0, true)
  idb.forEach((x, i) => { off += x.length; dv.setUint32(p + 4 * (i + 1), off, true) })
  p += 4 * (ids.length + 1)
  for (const x of idb) b.set(x, p), (p += x.length)
  const qs = p + 4 * ids.length
  rows.forEach((r, i) => {
    if (r.length !== dims) throw new TypeError(`emojisearch: row ${i} has ${r.length} dims, not ${dims}`)
    let norm = 0, peak = 0
    for (const x of r) norm += x * x
    norm = Math.sqrt(norm)
    if (norm > 0 && Number.isFinite(norm)) for (const x of r) peak = Math.max(peak, Math.abs(x / norm))
    const scale = peak > 0 ? peak / 127 : 0
    dv.setFloat32(p + 4 * i, scale, true)
    for (let d = 0; d < dims; d++) dv.setInt8(qs + i * dims + d, scale > 0 ? Math.round(r[d] / norm / scale) : 0)
  })
  dv.setUint32(size - 4, crc32(b.subarray(0, size - 4)), true)
  return b
}

/** l2normalize returns vector / |vector| as float32 (zeros when the norm is 0 or not finite). */
export function l2normalize(vector) {
  let s = 0
  for (const x of vector) s += x * x
  const out = new Float32Array(vector.length)
  if (s === 0 || !Number.isFinite(s)) return out
  const k = 1 / Math.sqrt(s)
  for (let i = 0; i < vector.length; i++) out[i] = vector[i] * k
  return out
}

/** searchVectorSets returns the best k ids by cosine over several vector files, each id's best row. */
export function searchVectorSets(indexes, query, k) {
  if (!(k > 0)) return []
  const q = l2normalize(query)
  if (q.every((x) => x === 0)) return []
  const f = Math.fround
  const best = new Map()
  indexes.forEach((x, fi) => {
    if (!x || x.dims !== q.length) return
    const { rows, dims, ids } = x
    for (let i = 0; i < ids.length; i++) {
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0, d = 0, o = i * dims
      for (; d + 4 <= dims; d += 4) {
        s0 = f(s0 + f(rows[o + d] * q[d])), s1 = f(s1 + f(rows[o + d + 1] * q[d + 1]))
        s2 = f(s2 + f(rows[o + d + 2] * q[d + 2])), s3 = f(s3 + f(rows[o + d + 3] * q[d + 3]))
      }
      for (; d < dims; d++) s0 = f(s0 + f(rows[o + d] * q[d]))
      const sc = f(f(f(s0 + s1) + s2) + s3)
      const cur = best.get(ids[i])
      if (!cur || sc > cur.score) best.set(ids[i], { id: ids[i], score: sc, order: cur ? cur.order : fi * 2 ** 32 + i })
    }
  })
  return [...best.values()].sort((a, b) => b.score - a.score || a.order - b.order).slice(0, k).map(({ id, score }) => ({ id, score }))
}

/** searchVectors is searchVectorSets over one vector file. */
export const searchVectors = (index, query, k) => searchVectorSets([index], query, k)
