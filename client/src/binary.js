// Prebuilt binary indexes (index.<locale>.bin, packs/FORMAT.md "Binary
// index"; Go: engine/internal/index) read in place, as the Go engine reads
// them: the locale's phrase tables are typed-array views over the file's
// bytes and its strings are decoded on first use, so an engine is ready
// without normalising and indexing tens of thousands of phrases (what
// createEngine spends on a JSON pack, mostly before the JIT has warmed up).
// The package root's createEngine takes such a file (ArrayBuffer or
// Uint8Array) in place of a locale's packs; the bare core (client/core.js)
// does not, to stay small.
import { Index, Seg } from './engine.js'
import { PACK_FORMAT, PACK_FORMAT_VERSION } from './format.js'

const dec = new TextDecoder()
const enc = new TextEncoder()
const bad = (why) => new TypeError('emojisearch: not a usable binary index: ' + why)
const little = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1
// utf8 writes s into one reused buffer and returns its byte length: search
// encodes a few keys per keystroke, without allocating.
const buf = new Uint8Array(1024)
const utf8 = (s) => (s.length > 256 ? -1 : enc.encodeInto(s, buf).written)
// max is the largest value of an integer array (-1 when empty); unzig
// remembers it for the arrays it decodes. A small loop of its own: V8
// compiles it after a few thousand iterations.
function max(a) {
  if (a.mx !== undefined) return a.mx
  let m = -1
  for (let i = 0; i < a.length; i++) if (a[i] > m) m = a[i]
  return m
}

/** isBinaryIndex reports bytes that start like a binary index. */
export const isBinaryIndex = (v) =>
  (v instanceof ArrayBuffer || v instanceof Uint8Array) && v.byteLength >= 8 && dec.decode(new Uint8Array(v instanceof Uint8Array ? v.buffer : v, v.byteOffset || 0, 8)) === 'ESIDX\0\0\0'

// sections returns the 48 sections of a file as typed arrays over its bytes.
function sections(u8) {
  if (u8.byteOffset % 8) u8 = u8.slice() // views need 8-byte alignment
  const dv = new DataView(u8.buffer, u8.byteOffset, u8.byteLength)
  const n = dv.getUint16(10, true)
  if (!little) throw bad('big-endian host')
  if ((dv.getUint16(8, true) - 1) >>> 0 > 1 || n !== 48 || dv.getUint32(12, true) !== u8.length || 16 + 12 * n > u8.length) throw bad('header')
  const S = []
  for (let i = 0; i < n; i++) {
    const o = 16 + 12 * i, w = u8[o], count = dv.getUint32(o + 4, true), at = dv.getUint32(o + 8, true)
    if (!(w === 1 || w === 2 || w === 4 || w === 8) || at % 8 || at + w * count > u8.length) throw bad('section ' + i)
    const T = w === 1 ? Uint8Array : w === 2 ? Uint16Array : Uint32Array
    S.push(new T(u8.buffer, u8.byteOffset + at, w === 8 ? count * 2 : count))
  }
  return S
}

// Strs is a string table (offsets, bytes): string i is decoded on first use.
class Strs {
  constructor(off, bytes) {
    this.o = off
    this.b = bytes
    this.c = []
    this.length = Math.max(off.length - 1, 0)
    // Offsets out of order or range give wrong strings, never an exception:
    // subarray clamps them.
  }
  // all decodes every string: one decode of the bytes, cut where each
  // string starts (UTF-16 positions counted over the bytes unless ASCII).
  all() {
    const o = this.o, b = this.b, s = dec.decode(b), out = []
    if (s.length === b.length) { // ASCII
      for (let i = 0; i < this.length; i++) out.push(s.slice(o[i], o[i + 1]))
      return out
    }
    const at = new Uint32Array(b.length + 1) // byte offset -> UTF-16 offset
    let u = 0
    for (let j = 0; j < b.length; j++) {
      at[j] = u
      if ((b[j] & 0xc0) !== 0x80) u += b[j] >= 0xf0 ? 2 : 1
    }
    at[b.length] = u
    for (let i = 0; i < this.length; i++) out.push(s.slice(at[o[i]], at[o[i + 1]]))
    return out
  }
  at(i) {
    return this.c[i] ?? (this.c[i] = dec.decode(this.b.subarray(this.o[i], this.o[i + 1])))
  }
  // cmp compares string i with the first m bytes of buf bytewise (Go's string order).
  cmp(i, m) {
    const b = this.b, s = this.o[i], n = this.o[i + 1] - s
    for (let j = 0; j < n && j < m; j++) if (b[s + j] !== buf[j]) return b[s + j] - buf[j]
    return n - m
  }
  starts(i, m) {
    const b = this.b, s = this.o[i]
    if (this.o[i + 1] - s < m) return false
    for (let j = 0; j < m; j++) if (b[s + j] !== buf[j]) return false
    return true
  }
}
const strs = (S, i) => new Strs(S[i], S[i + 1])

// StemKeys is a device index's stem keys, sorted, not spelt out: stem k's
// is the key of its first term (the file lists each stem's terms, the one
// with the stem's key first), or for the stems listed in oddAt, the next of
// the file's other stem keys. Exact lookups only (cmp, at).
class StemKeys {
  constructor(terms, off, by, odd, oddAt) {
    Object.assign(this, { terms, off, by, odd, oddAt, length: off.length - 1, c: [] })
  }
  // span points b, s and n at stem i's key bytes.
  span(i) {
    const j = lower(this.oddAt, i)
    if (this.oddAt[j] === i) this.b = this.odd.b, this.s = this.odd.o[j], this.n = this.odd.o[j + 1] - this.s
    else {
      const t = this.by[this.off[i]], o = this.terms.o
      this.b = this.terms.b, this.s = o[t], this.n = o[t + 1] - o[t]
    }
  }
  at(i) {
    if (this.c[i] === undefined) this.span(i), (this.c[i] = dec.decode(this.b.subarray(this.s, this.s + this.n)))
    return this.c[i]
  }
  cmp(i, m) {
    this.span(i)
    const { b, s, n } = this
    for (let j = 0; j < n && j < m; j++) if (b[s + j] !== buf[j]) return b[s + j] - buf[j]
    return n - m
  }
}
const none = new Uint32Array(0)

// Tab is a keyed table: sorted keys, posting offsets and lists, and hash
// slots (32-bit FNV-1a of the key, linear probing) for exact lookups.
class Tab {
  constructor(S, i, phrases, base, lazy) {
    if (S[i]) this.k = strs(S, i) // a device index's term and stem keys: made on first use (LazyTerms, LazyStems)
    this.off = S[i + 2]
    this.post = S[i + 3]
    this.slots = S[i + 4] || none
    if (lazy) return // its lists are made on lookup (LazyStems)
    const n = this.slots.length
    // What search reads is checked: posting ranges inside the postings (out
    // of order, a range is empty), postings naming phrases, slots naming keys.
    if ((this.off.length !== this.k.length + 1 && this.k.length) || max(this.off) > this.post.length) throw bad('posting offsets')
    if (n & (n - 1) || (n && n <= this.k.length) || max(this.slots) > this.k.length) throw bad('hash slots')
    if (phrases >= 0) {
      if (max(this.post) >= phrases) throw bad('postings')
      if (base) { // phrase ids are global over the engine (a plain loop: from() with a callback is slow while cold)
        const p = this.post, g = new Int32Array(p.length)
        for (let i = 0; i < p.length; i++) g[i] = p[i] + base
        this.post = g
      }
    }
  }
  // get is the key's index, or undefined; answers are remembered (typing
  // asks for the same words keystroke after keystroke), at most 4096.
  get(key) {
    const memo = this.memo || (this.memo = new Map())
    let v = memo.get(key)
    if (v === undefined) {
      if (memo.size >= 4096) memo.clear()
      memo.set(key, (v = this.find(key)))
    }
    return v < 0 ? undefined : v
  }
  find(key) {
    const n = this.slots.length, m = utf8(key)
    if (m < 0) return -1
    if (!n) return this.search(m)
    let h = 0x811c9dc5
    for (let j = 0; j < m; j++) h = Math.imul(h ^ buf[j], 0x01000193)
    for (let j = h & (n - 1), tries = n; tries--; j = (j + 1) & (n - 1)) {
      const v = this.slots[j]
      if (!v) return -1
      if (!this.k.cmp(v - 1, m)) return v - 1
    }
    return -1
  }
  has(key) {
    return this.get(key) !== undefined
  }
  // search finds the first m bytes of buf among the sorted keys (a device
  // index's tables come without hash slots; lookups are remembered).
  search(m) {
    let lo = 0, hi = this.k.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1, c = this.k.cmp(mid, m)
      if (!c) return mid
      if (c < 0) lo = mid + 1
      else hi = mid
    }
    return -1
  }
}

// LazyTerms is a device index's term table. The file lists a term's texts
// (packs/FORMAT.md "Device index"): those it starts, a run of the texts
// ordered by their tokens, and the others, varints of its own; the term's
// phrases are those texts' phrases (numbered text by text, so ascending),
// made on its first lookup (find, place) into lists shaped as Tab's (off,
// post): an engine does not decode the tens of thousands of postings typing
// never reaches.
class LazyTerms extends Tab {
  constructor(S, phrases, base) {
    super(S, 22, -1, 0, true)
    this.S = S
    this.n = phrases
    this.base = base
    this.off = [0]
    this.post = []
    this.at = new Int32Array(S.nTerms).fill(-1) // term -> its place, once made
  }
  // k is the term keys, their offsets decoded on first use.
  get k() {
    return this._k || (this._k = this.S.termKeys())
  }
  set k(v) {} // Tab's constructor: see k
  find(key) {
    const k = super.find(key)
    return k < 0 ? -1 : this.place(k)
  }
  // place is term t's place in off and post, its list made there on first
  // use only.
  place(t) {
    if (this.at[t] >= 0) return this.at[t]
    const { first, tStart: ts, listAt, lists } = this.S.texts(), nt = first.length
    const a = listAt[t], b = listAt[t + 1]
    if (!(a <= b && b <= lists.length)) throw bad('posting offsets')
    const later = []
    for (let at = a, prev = 0; at < b;) { // zigzag delta varints, the first from 0
      let v = 0, mul = 1, c
      do {
        if (at >= b || mul > 2 ** 35) throw bad('postings')
        c = lists[at++]
        v += (c & 0x7f) * mul
        mul *= 128
      } while (c & 0x80)
      prev += v % 2 ? -(v + 1) / 2 : v / 2
      if (prev < 0 || prev >= nt) throw bad('postings')
      later.push(prev)
    }
    let i = lower(first, t), j = 0
    const end = lower(first, t + 1), post = this.post, base = this.base
    while (i < end || j < later.length) { // the two ascending lists of texts, merged
      const x = j >= later.length || (i < end && i < later[j]) ? i++ : later[j++]
      for (let p = ts[x]; p < ts[x + 1]; p++) post.push(p + base)
    }
    this.off.push(post.length)
    return (this.at[t] = this.off.length - 2)
  }
}

// lower is the first position of a sorted array whose value is not below v.
function lower(a, v) {
  let lo = 0, hi = a.length
  while (lo < hi) {
    const m = (lo + hi) >>> 1
    if (a[m] < v) lo = m + 1
    else hi = m
  }
  return lo
}

// LazyStems is a device index's stem table: its sorted keys (most of them
// a term's key, which the file names instead of spelling) are made on the
// first lookup, and each stem's list, the union of its terms' lists (the
// file says which stem each term has), on the stem's first lookup: typing
// looks up few stems, and an engine is ready sooner.
class LazyStems extends Tab {
  constructor(S, terms) {
    super(S, 28, -1, 0, true)
    this.S = S
    this.terms = terms
    this.off = [0]
    this.post = []
  }
  // k is the stem keys (StemKeys), read with each stem's terms on first use.
  get k() {
    if (this._k) return this._k
    const { at, terms, odd, oddAt } = this.S.stems()
    this.byOff = at
    this.byTerm = terms
    this.at = new Int32Array(at.length - 1).fill(-1) // stem -> its place, once made
    return (this._k = new StemKeys(this.terms.k, at, terms, odd, oddAt))
  }
  set k(v) {} // Tab's constructor: the keys are made on first use
  // find is the stem's place in off and post, its list appended there on
  // its first lookup only.
  find(key) {
    const k = super.find(key)
    if (k < 0 || this.at[k] >= 0) return k < 0 ? -1 : this.at[k]
    return (this.at[k] = union(this, this.terms, this.byTerm, this.byOff[k], this.byOff[k + 1]))
  }
}

// union appends to tab's lists (off, post) the union, ascending, of the
// lists of terms by[a:b] (sorted positions) of the term table T, and
// returns its place.
function union(tab, T, by, a, b) {
  let l = []
  for (let i = a; i < b; i++) for (let t = T.place(by[i]), j = T.off[t]; j < T.off[t + 1]; j++) l.push(T.post[j])
  if (b - a > 1) l = [...new Set(l)].sort((x, y) => x - y)
  for (const p of l) tab.post.push(p)
  tab.off.push(tab.post.length)
  return tab.off.length - 2
}

// BinSeg is one locale's segment read from a binary index; its phrases are
// base.. base+n-1 of the engine. Term ids are sorted positions.
class BinSeg extends Seg {
  constructor(locale, S, base, entries, derived) {
    super(locale)
    const n = S[19].length
    this.base = base
    this.n = n
    this.maxW = S[2][0] || 0
    this.ph = S.text ? { at: S.text } : strs(S, 17) // a device index's texts: see deviceSections
    this.terms = derived ? new LazyTerms(S, n, base) : new Tab(S, 22, n, base)
    this.stems = derived ? new LazyStems(S, this.terms) : new Tab(S, 28, n, base)
    this.grams = derived ? grams(this.terms, S) : new Tab(S, 33, n, base)
    const sym = new Tab(S, 38, -1)
    if (max(sym.post) >> 3 >= entries) throw bad('symbols')
    const keys = sym.k.all()
    for (let k = 0; k < keys.length; k++) this.sym.set(keys[k], Array.from(sym.post.subarray(sym.off[k], sym.off[k + 1])))
    this.grp = strs(S, 3).all()
    this.labs = strs(S, 15)
    if (this.labs.length !== entries) throw bad('labels')
  }
  // Labels: one entry's on first read (BinIndex.label, per result), all of
  // them when the engine lists its entries.
  get lab() {
    return this._lab || (this._lab = this.labs.all())
  }
  set lab(v) {} // Seg's empty list: this segment's come from the file
  labelOf(ei) {
    return ei < this.labs.length ? this.labs.at(ei) : ''
  }
  // range is [lo, hi) of the sorted terms starting with p (the last answer
  // is kept: a keystroke asks for its prefix more than once).
  range(p) {
    if (p === this.rp) return this.rr
    this.rp = p
    return (this.rr = this.span(p))
  }
  span(p) {
    const q = utf8(p), K = this.terms.k
    if (q < 0) return [0, 0]
    let lo = 0, hi = K.length
    while (lo < hi) {
      const m = (lo + hi) >>> 1
      if (K.cmp(m, q) < 0) lo = m + 1
      else hi = m
    }
    let end = K.length
    for (let l = lo; l < end;) {
      const m = (l + end) >>> 1
      if (K.starts(m, q)) l = m + 1
      else end = m
    }
    return [lo, end]
  }
  key(t) {
    return this.terms.k.at(t)
  }
  // term is where term t's list is: its sorted position, or (a device
  // index) its place once decoded; prefix matches ask for every term of a
  // range, keystroke after keystroke, so the decoded case is inline.
  term(t) {
    const T = this.terms
    if (!T.at) return t
    const a = T.at[t]
    return a >= 0 ? a : T.place(t)
  }
}

/** isDeviceIndex reports bytes that start like a device index (device.<locale>.bin). */
export const isDeviceIndex = (v) =>
  (v instanceof ArrayBuffer || v instanceof Uint8Array) && v.byteLength >= 8 && dec.decode(new Uint8Array(v instanceof Uint8Array ? v.buffer : v, v.byteOffset || 0, 8)) === 'ESDEV\0\0\0'

// deviceSections reads a device index (packs/FORMAT.md "Device index", Go:
// packs/device.go) as the sections of a binary index BinSeg reads, typed
// arrays at the binary index's section numbers: strings and bytes in place,
// deltas summed. What only a lookup or a result's text needs is decoded on
// first use (engine creation runs mostly before the JIT has warmed up):
// S.termKeys() the term keys (S.nTerms of them), S.texts() the text table
// (per text its first term and first phrase, the terms' other texts),
// S.stems() the terms grouped by stem and the stem keys, S.text(i) phrase
// i's text, S.unspaced() the terms without a stem (the grams come from
// them). S.ids is the entry ids' count and hash.
function deviceSections(u8) {
  const dv = new DataView(u8.buffer, u8.byteOffset, u8.byteLength)
  const N = DEV_ENC.length
  if (!little) throw bad('big-endian host')
  if (u8.length < 14 + 10 * N || dv.getUint16(8, true) !== 3 || (dv.getUint16(10, true) - 1) >>> 0 > 1 || dv.getUint16(12, true) !== N) throw bad('device header')
  const D = []
  let at = 14 + 10 * N
  for (let i = 0; i < N; i++) {
    const d = 14 + 10 * i, w = u8[d], enc = u8[d + 1], count = dv.getUint32(d + 2, true), len = dv.getUint32(d + 6, true)
    const T = w === 1 ? Uint8Array : w === 2 ? Uint16Array : w === 4 ? Uint32Array : null
    if (!T || at + len > u8.length || enc !== DEV_ENC[i] || (enc === 1 && len !== w * count) || (enc === 5 && len !== 4)) throw bad('device section ' + i)
    if (enc === 1 && w > 1) { // little-endian integers (the phrase entries): a copy, aligned
      const c = new T(count)
      new Uint8Array(c.buffer).set(u8.subarray(at, at + len))
      D.push(c)
    } else D.push(enc === 1 || enc === 4 ? u8.subarray(at, at + len) : enc === 5 ? { count, hash: dv.getUint32(at, true) } : { a: at, z: at + len, count, T })
    at += len
  }
  if (at !== u8.length) throw bad('device length')
  const get = (i) => (D[i].a === undefined ? D[i] : (D[i] = D[i].T && DEV_ENC[i] === 2 ? unzig(u8, D[i].a, D[i].z, new D[i].T(D[i].count), i) : unvar(u8, D[i], i)))
  const S = []
  for (const [to, from] of [[0, 0], [1, 1], [2, 2], [3, 3], [4, 4], [15, 6], [16, 7], [38, 25], [39, 26], [40, 27], [41, 28], [19, 18], [20, 19], [21, 15]]) S[to] = get(from)
  S.ids = D[5]
  const nTerms = (S.nTerms = Math.max(D[8].count - 1, 0)), n = S[19].length
  let terms
  S.termKeys = () => terms || (terms = new Strs(get(8), get(9)))
  if (S[20].length !== n || S[21].length !== n) throw bad('device texts')
  let stems, texts, rest, restAt, odd
  // The stems: where each one's terms start among the terms grouped by
  // stem, the stems not spelt by their first term and their keys.
  S.stems = () => {
    if (stems) return stems
    const at = get(10), terms = get(11), odd = new Strs(get(12), get(13)), oddAt = get(29)
    if (!at.length || at[at.length - 1] !== terms.length || at.mx !== terms.length || max(terms) >= nTerms || oddAt.length !== odd.length || max(oddAt) >= at.length - 1) throw bad('stems')
    return (stems = { at, terms, odd, oddAt })
  }
  S.unspaced = () => {
    const u = get(30)
    if (max(u) >= nTerms) throw bad('unspaced terms')
    return u
  }
  // The texts: their first terms (ascending) and first phrases; the terms'
  // other texts.
  S.texts = () => {
    if (texts) return texts
    const first = get(14), ts = get(17), nt = first.length
    if (max(first) >= nTerms || ts.length !== nt + 1 || ts[nt] !== n || ts.mx !== n) throw bad('device texts')
    const listAt = get(20), lists = get(21)
    if (listAt.length !== nTerms + 1 || max(listAt) > lists.length) throw bad('posting offsets')
    return (texts = { first, tStart: ts, listAt, lists })
  }
  // Phrase i's text: its text's terms joined by spaces, or the text as the
  // file spells it when that is not it ("t恤": no space between scripts).
  S.text = (i) => {
    const { first, tStart: ts } = S.texts(), nt = first.length
    if (!rest) {
      rest = get(16)
      restAt = get(31)
      if (restAt.length !== nt + 1 || restAt[nt] !== rest.length || restAt.mx !== rest.length || max(rest) >= nTerms) throw bad('device texts')
      odd = new Map()
      const ids = get(22), spelt = new Strs(get(23), get(24))
      if (ids.length !== spelt.length) throw bad('device texts')
      for (let j = 0; j < ids.length; j++) odd.set(ids[j], spelt.at(j))
    }
    const x = lower(ts, i + 1) - 1
    let s = odd.get(x)
    if (s === undefined) {
      const terms = S.termKeys()
      s = terms.at(first[x])
      for (let j = restAt[x]; j < restAt[x + 1]; j++) s += ' ' + terms.at(rest[j])
    }
    return s
  }
  return S
}

// DEV_ENC is the encoding of each section of a device index (packs/device.go):
// 1 raw (little-endian integers), 2 zigzag delta varints, 3 varints, 4 lists
// of delta varints, 5 a hash.
const DEV_ENC = [2, 1, 2, 2, 1, 5, 2, 1, 2, 1, 2, 2, 2, 1, 2, 1, 3, 2, 1, 1, 2, 4, 2, 2, 1, 2, 1, 2, 2, 2, 2, 2]

// unvar is the values of the LEB128 varints of a device index's section d
// (stored in u8[d.a:d.z]).
function unvar(u8, d, i) {
  const out = new Uint32Array(d.count), z = d.z
  let at = d.a
  for (let j = 0; j < out.length; j++) {
    if (at >= z) throw bad('device section ' + i)
    let v = u8[at++]
    if (v > 127) {
      v &= 0x7f
      let mul = 128, b
      do {
        if (at >= z || mul > 2 ** 28) throw bad('device section ' + i)
        b = u8[at++]
        v += (b & 0x7f) * mul
        mul *= 128
      } while (b & 0x80)
    }
    out[j] = v
  }
  if (at !== z) throw bad('device section ' + i)
  return out
}

// unzig fills out with the running sum of the zigzag LEB128 varints in
// u8[at:end]. Most values are one byte: that path is kept short, since it
// runs over every offset and posting before the JIT has warmed up.
function unzig(u8, at, end, out, i) {
  let prev = 0, mx = -1
  const n = out.length
  for (let j = 0; j < n; j++) {
    if (at >= end) throw bad('device section ' + i)
    let v = u8[at++]
    if (v > 127) {
      v &= 0x7f
      let mul = 128, b
      do {
        if (at >= end || mul > 2 ** 35) throw bad('device section ' + i)
        b = u8[at++]
        v += (b & 0x7f) * mul
        mul *= 128
      } while (b & 0x80)
    }
    prev += v < 0x80000000 ? (v >>> 1) ^ -(v & 1) : v % 2 ? -(v + 1) / 2 : v / 2
    out[j] = prev
    if (prev > mx) mx = prev
  }
  if (at !== end) throw bad('device section ' + i)
  out.mx = mx
  return out
}

// grams is the gram table a device index leaves out: a gram's (a character
// or a pair of them) phrases are those of the segment's unspaced terms (the
// terms without a stem) holding it. Nothing is built with the engine: a
// gram's terms are found on its first lookup by a scan of those terms' keys
// for its UTF-8 bytes (a whole-character sequence matches only at character
// boundaries), and its list is made then, as a stem's (LazyStems). A
// Chinese index is all unspaced terms; a keystroke looks up one or two new
// grams at most.
function grams(terms, S) {
  const tab = { off: [0], post: [] }, made = new Map()
  tab.get = (k) => {
    let v = made.get(k)
    if (v === undefined) {
      const n = k.length, c = k.codePointAt(0) > 0xffff ? 2 : 1
      if (n !== c && (n < c + 1 || n !== c + (k.codePointAt(c) > 0xffff ? 2 : 1))) return undefined // one or two characters only
      const m = utf8(k), o = terms.k.o, b = terms.k.b, hit = [], b0 = buf[0]
      for (const t of S.unspaced()) {
        for (let j = o[t], end = o[t + 1] - m; j <= end; j++) {
          if (b[j] !== b0) continue
          let i = 1
          while (i < m && b[j + i] === buf[i]) i++
          if (i === m) {
            hit.push(t)
            break
          }
        }
      }
      made.set(k, (v = hit.length ? union(tab, terms, hit, 0, hit.length) : -1))
    }
    return v < 0 ? undefined : v
  }
  return tab
}

/**
 * devicePack reads a device index (device.<locale>.bin, which loadPacks
 * fetches by default) as a pack of its locale, like indexPack; or a part
 * of one (device.<locale>.<part>.bin: the associations), which createEngine
 * searches beside the locale's index (`sub` names the part).
 */
export function devicePack(bytes) {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)
  if (!isDeviceIndex(u8)) throw bad('magic')
  const S = deviceSections(u8)
  const meta = strs(S, 0)
  if (meta.length !== 2 && meta.length !== 3) throw bad('meta')
  const p = { format: PACK_FORMAT, formatVersion: PACK_FORMAT_VERSION, packVersion: meta.at(1), locale: meta.at(0), part: 'ext', rowIndex: {}, rows: [], bin: S, derive: true }
  if (meta.length === 3) p.sub = meta.at(2)
  return p
}

/**
 * indexPack wraps a binary index as a pack of its locale (part `ext`, no
 * rows), so createEngine takes it beside the JSON packs; BinIndex reads it.
 */
export function indexPack(bytes) {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)
  if (!isBinaryIndex(u8)) throw bad('magic')
  const S = sections(u8)
  const meta = strs(S, 0)
  if (meta.length !== 2) throw bad(meta.length === 3 ? 'a part index (' + meta.at(2) + ')' : 'meta')
  return { format: PACK_FORMAT, formatVersion: PACK_FORMAT_VERSION, packVersion: meta.at(1), locale: meta.at(0), part: 'ext', rowIndex: {}, rows: [], bin: S }
}

// entryIds is the ids of the English core pack's rows, remembered per pack.
const packIds = new WeakMap()
function entryIds(en) {
  let ids = packIds.get(en)
  if (!ids) packIds.set(en, (ids = en.rows.map((r) => r[en.rowIndex.id])))
  return ids
}

/**
 * checkIndexPack returns an index pack (indexPack, devicePack) after
 * checking it is the locale's and belongs to the English core pack en:
 * locale, pack version and entry table (what BinIndex needs of it); it
 * throws otherwise.
 */
export function checkIndexPack(p, en, locale) {
  if (p.locale !== locale || p.packVersion !== en.packVersion || !sameIds(p.bin, entryIds(en))) {
    throw bad(`not the ${locale} index of pack.en.json ${en.packVersion}`)
  }
  return p
}

// sameIds reports an index's entry table is ids: a binary index lists the
// ids, a device index has their count and hash (32-bit FNV-1a of each id's
// UTF-8 bytes and a newline), remembered per list of ids.
const idHashes = new WeakMap()
function sameIds(S, ids) {
  if (!S.ids) {
    const own = strs(S, 5).all()
    return own.length === ids.length && own.every((id, i) => id === ids[i])
  }
  let h = idHashes.get(ids)
  if (h === undefined) {
    h = 0x811c9dc5
    for (let k = 0; k < ids.length; k++) { // ids are hexcodes: ASCII, their UTF-16 units their bytes
      const id = ids[k]
      for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193)
      h = Math.imul(h ^ 10, 0x01000193)
    }
    idHashes.set(ids, (h >>>= 0))
  }
  return S.ids.count === ids.length && S.ids.hash === h
}

// phrasesOK reports every phrase's entry below m and field a stored one
// (0-6): one pass over both columns (their values read in place or copied).
function phrasesOK(pe, pf, m) {
  if (pe.mx !== undefined) return pe.mx < m && max(pf) <= 6
  for (let i = 0; i < pe.length; i++) if (pe[i] >= m || pf[i] > 6) return false
  return true
}

// full is the phrase count of the engine BinIndex is building when every
// segment comes from a binary index (0 otherwise): its phrase columns are
// then made once instead of grown per segment.
let full = 0
function phrasesIfAllBinary(packs) {
  const bin = new Map()
  let n = 0
  for (const p of packs) {
    if (p.bin && p.sub) n += p.bin[19].length
    else if (p.bin && !bin.has(p.locale)) bin.set(p.locale, p.bin[19].length)
  }
  if (packs.some((p) => p.part === 'custom' || !bin.has(p.locale) || beside(p))) return 0
  for (const v of bin.values()) n += v
  return n
}

// beside reports a JSON extension pack, which a locale's index does not
// hold (the associations, pack.<locale>.assoc.json): the index holds the
// locale's core and extension packs, so those are given as JSON without it.
const beside = (p) => !p.bin && p.part === 'ext'

/**
 * BinIndex is the engine's index with binary segments: a locale given as a
 * binary index is read from it, and that locale's JSON packs then only
 * contribute entries (the English core pack) and words, since the index
 * holds their phrases. The entry table must be the English core pack's.
 */
export class BinIndex extends Index {
  constructor(packs, minCoverage) {
    full = phrasesIfAllBinary(packs)
    super(packs, minCoverage)
  }

  // build makes a locale's segments: its index's (the last: labels are read
  // from the locale's last segment), after the parts beside it (JSON
  // extension packs, then part device indexes such as the associations,
  // device.<locale>.assoc.bin), or its JSON packs' after its part indexes.
  build(loc, packs) {
    const b = packs.find((p) => p.bin && !p.sub)
    const json = packs.filter(b ? beside : (p) => !p.bin)
    const parts = packs.filter((p) => p.bin && p.sub)
    if (b && json.length) this.jsonSeg(loc, json)
    for (const p of parts) this.binSeg(loc, p)
    if (b) this.binSeg(loc, b)
    else this.jsonSeg(loc, json)
  }

  jsonSeg(loc, packs) {
    for (const k of ['pEntry', 'pField', 'pNTok', 'pSeg']) if (!Array.isArray(this[k])) this[k] = Array.from(this[k])
    super.build(loc, packs)
  }

  binSeg(loc, b) {
    const S = b.bin
    const m = S.ids ? S.ids.count : S[5].length - 1
    const ids = this.idList || (this.idList = this.E.filter((e) => !e.custom).map((e) => e.id))
    if (b.packVersion !== this.packVersion || !sameIds(S, ids)) throw bad('not of pack ' + this.packVersion + ' (its entry table)')
    const base = this.nPh ?? this.pText.length, si = this.segs.length
    const s = new BinSeg(loc, S, base, m, b.derive)
    // The associations do not complete a word of one or two bytes (UTF-8),
    // as in the Go engine (index.assocMinPrefix): too little to call up a
    // loose word, and the slowest keystrokes once they are loaded.
    if (b.sub === 'assoc') s.min = 3
    const [pe, pf, pn] = [S[19], S[20], S[21]]
    if (pf.length !== s.n || pn.length !== s.n || !phrasesOK(pe, pf, m)) throw bad('phrases')
    this.segs.push(s)
    if (full) { // every segment binary: the columns are made once, at their full length
      if (!base) {
        this.pEntry = new Uint32Array(full)
        this.pField = new Uint8Array(full)
        this.pNTok = new Uint8Array(full)
        this.pSeg = new Uint8Array(full)
        this.pText = new Array(full)
      }
      this.pEntry.set(pe, base)
      this.pField.set(pf, base)
      this.pNTok.set(pn, base)
      this.pSeg.fill(si, base, base + s.n)
      this.nPh = base + s.n
      return
    }
    if (!base) {
      this.pEntry = pe
      this.pField = pf
      this.pNTok = pn
      this.pSeg = new Uint8Array(s.n).fill(si)
      this.pText = new Array(s.n)
      return
    }
    if (Array.isArray(this.pEntry)) for (let i = 0; i < s.n; i++) this.pEntry.push(pe[i]), this.pField.push(pf[i]), this.pNTok.push(pn[i]), this.pSeg.push(si)
    else {
      // Binary segments one after another: the columns stay typed arrays.
      const cat = (a, b, T) => {
        const c = new T(a.length + b.length)
        c.set(a)
        c.set(b, a.length)
        return c
      }
      this.pEntry = cat(this.pEntry, pe, Uint32Array)
      this.pField = cat(this.pField, pf, Uint8Array)
      this.pNTok = cat(this.pNTok, pn, Uint8Array)
      this.pSeg = cat(this.pSeg, new Uint8Array(s.n).fill(si), Uint8Array)
    }
    this.pText.length += s.n
  }

  label(ei, loc) {
    const l = (s) => (s.labs ? s.labelOf(ei) : s.lab[ei])
    return (loc >= 0 && l(this.segs[loc])) || l(this.segs[0]) || this.E[ei].label || ''
  }

  text(pid) {
    let t = this.pText[pid]
    if (t === undefined) {
      const s = this.segs[this.pSeg[pid]]
      t = this.pText[pid] = s.ph.at(pid - s.base)
    }
    return t
  }
}
