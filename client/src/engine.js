// The alias (dictionary) engine of spec 3: a port of the Go engine
// (engine/search.go, engine/internal/index) that gives the same answers on
// the same packs (client/test/parity.test.js checks it against goldens
// written by `go run ./engine/cmd/goldens`). Scores are float32 as in Go
// (Math.fround at every step), so ties break the same way on both sides.
import { normalize, tokenize, stem, isAscii, isUnspaced, utf8Len, boundedEditDistance, charClass, MAX_QUERY_LENGTH, WS } from './text.js'
import { assertPack, FIELDS } from './format.js'
import { emojiOfHex, language } from './hex.js'

const f = Math.fround
const MAX_UNITS = 8
const FANOUT = 256
const LOW = 4
const TYPO = 7
const NF = 7 // stored fields: name shortcode keyword alias low editorial editorial_more
// Weights by field (typo last) and the English factor, float32 as in Go.
const W = [1, 0.97, 0.85, 0.7, 0.3, 0.9, 0.8, 0.55].map(f)
const ENGLISH = f(0.92)
const STOP_W = f(0.2) // weight of a function word in a query that holds a content word
const F0999 = f(0.999)
const FAMILY_TOP = 5 // first places where a family shows one member
const Q_STEM = f(0.82), Q_PREFIX = f(0.62), Q_BIGRAM = f(0.75), Q_UNIGRAM = f(0.5)
const F03 = f(0.3), F015 = f(0.15), F07 = f(0.7), F06 = f(0.6), F04 = f(0.4), F09 = f(0.9), F01 = f(0.1), F099 = f(0.99), BONUS = f(1.04)

// Seg is one locale's phrases and tables. Phrase ids are global over the engine.
class Seg {
  constructor(locale) {
    this.locale = locale
    this.terms = new Tab() // token -> phrase ids
    this.stems = new Tab() // light stem of a spaced token -> phrase ids
    this.grams = new Tab() // characters and character pairs of unspaced tokens -> phrase ids
    this.sym = new Map() // raw emoticon key -> [entry<<3|field]
    this.n = 0 // phrases
    this.maxW = 0
    // this.min, when a part sets it (binSeg): the shortest word, in UTF-8 bytes, that completes here
    this.lab = [] // entry -> label of the locale, when it has a searchable name
    this.grp = []
  }
  // ks returns the sorted terms, sorted on first prefix use.
  ks() {
    if (!this.keys) {
      const k = [...this.terms.ids.keys()].sort()
      // UTF-16 order equals UTF-8 (Go's) order unless a key holds astral characters.
      const astral = k.some((s) => /[\ud800-\udfff]/.test(s))
      if (astral) k.sort(cmpUTF8)
      this.keys = k
      this.tid = k.map((t) => this.terms.ids.get(t)) // sorted position -> term id
      this.cmp = astral ? cmpUTF8 : null
    }
    return this.keys
  }
  // prefixRange returns [lo, hi) of the sorted terms starting with p.
  range(p) {
    const k = this.ks()
    const c = this.cmp
    let lo = 0, hi = k.length
    while (lo < hi) {
      const m = (lo + hi) >>> 1
      if (c ? c(k[m], p) < 0 : k[m] < p) lo = m + 1
      else hi = m
    }
    let end = k.length
    for (let l = lo; l < end;) {
      const m = (l + end) >>> 1
      if (k[m].startsWith(p)) l = m + 1
      else end = m
    }
    return [lo, end]
  }
  // key is the sorted term at t, term its table id (a binary segment,
  // binary.js, reads both in place).
  key(t) {
    return this.ks()[t]
  }
  term(t) {
    return this.tid[t]
  }
}

function cmpUTF8(a, b) {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    let x = a.codePointAt(i), y = b.codePointAt(i)
    if (x !== y) return x - y
    if (x > 0xffff) i++
  }
  return a.length - b.length
}

// Tab maps keys to ascending lists of phrase ids. While a segment is
// built, postings are (key id, phrase id) pairs appended to one growing
// Int32Array; seal sorts them by key (a counting sort, stable, so each
// list stays ascending) into one Int32Array with offsets. An index is a
// few big arrays rather than thousands of small ones: little garbage-
// collector work at load, which dominates engine creation.
class Tab {
  constructor() {
    this.ids = new Map()
    this.last = [] // key id -> last phrase id added (a phrase once per key)
    this.pairs = new Int32Array(4096)
    this.np = 0
  }
  id(k) {
    let id = this.ids.get(k)
    if (id === undefined) {
      id = this.last.length
      this.ids.set(k, id)
      this.last.push(-1)
    }
    return id
  }
  add(k, pid) {
    this.addId(this.id(k), pid)
  }
  addId(id, pid) {
    if (this.last[id] === pid) return
    this.last[id] = pid
    const n = this.np
    if (n + 2 > this.pairs.length) {
      const a = new Int32Array(this.pairs.length * 2)
      a.set(this.pairs)
      this.pairs = a
    }
    this.pairs[n] = id
    this.pairs[n + 1] = pid
    this.np = n + 2
  }
  seal() {
    const m = this.last.length
    const P = this.pairs, N = this.np
    const off = (this.off = new Int32Array(m + 1))
    const post = (this.post = new Int32Array(N >> 1))
    for (let i = 0; i < N; i += 2) off[P[i] + 1]++
    for (let id = 0; id < m; id++) off[id + 1] += off[id]
    const at = off.slice(0, m)
    for (let i = 0; i < N; i += 2) post[at[P[i]]++] = P[i + 1]
    this.last = this.pairs = null
  }
  get(k) {
    return this.ids.get(k)
  }
  has(k) {
    return this.ids.has(k)
  }
}

function symbolKey(raw) {
  if (utf8Len(raw) > 16) return ''
  return raw.split(WS).filter(Boolean).join(' ').toLowerCase()
}

// isSymbolic reports short phrases made mostly of ASCII punctuation
// (emoticons). Native string operations only: pack loading runs once,
// mostly before the JIT has warmed up.
function isSymbolic(raw) {
  if (raw.length > 16 || !/[!-/:-@[-`{-~]/.test(raw)) return false
  const punct = raw.replace(/[^!-/:-@[-`{-~]/g, '').length
  return punct > 0 && punct * 2 >= utf8Len(raw.trim()) && utf8Len(raw) <= 16
}

const segName = (p) => (p.part === 'custom' ? 'custom' : p.locale)
const emojiKey = (e) => e.replace(/\ufe0f|\ud83c[\udffb-\udfff]/g, '') // no FE0F, no skin tones

// Index holds the entries (the English core pack's rows, then custom rows)
// and one segment per locale, English first.
class Index {
  constructor(packs, minCoverage) {
    this.minCov = f(minCoverage)
    const en = packs.find((p) => p.locale === 'en' && p.part === 'core')
    if (!en) throw new TypeError('emojisearch: no English core pack')
    this.packVersion = en.packVersion
    // The word lists of the ranking rules come with the English core pack
    // (packs/FORMAT.md "words"; Go: engine/internal/index/stop.go, their
    // one source), normalized: stop maps a function word to its locales.
    const w = en.words || {}
    const stop = (this.stop = new Map())
    for (const loc in w.stop) for (const t of w.stop[loc]) stop.set(t, [...(stop.get(t) || []), loc])
    this.notStop = w.notStop || {}
    this.gender = new Set(w.gender)
    this.flag = new Set(w.flag)
    this.couples = w.couples || {} // two-person emoji (no tones, no FE0F) -> the emoji their tones fold into
    const E = (this.E = [])
    const ids = (this.ids = new Map())
    const add = (p) => {
      const x = p.rowIndex
      for (const r of p.rows) {
        const id = r[x.id]
        if (ids.has(id)) continue
        const e = { id, emoji: r[x.emoji], group: Math.max(r[x.group] | 0, 0), sub: Math.max(r[x.subgroup] | 0, 0),
          ver: Math.round(Math.max(+r[x.version] || 0, 0) * 10), skins: r[x.skins] === 1, prior: Math.min(Math.max(r[x.prior] | 0, 0), 100), fid: r[x.family] || '', fam: 0,
          flag: /^1F1E|^1F1F|^1F3F4-E00/.test(id) } // a country or region flag
        if (p.part === 'custom') { // results carry the image and shortcode, like the search API's custom items
          e.custom = { imageUrl: r[x.imageUrl] }
          if (r[x.shortcode]) e.custom.shortcode = r[x.shortcode]
          e.label = r[x.label] || ''
        }
        ids.set(id, E.length)
        E.push(e)
      }
    }
    add(en)
    for (const p of packs) if (p.part === 'custom') add(p)
    for (let i = 0; i < E.length; i++) {
      const fi = E[i].fid ? ids.get(E[i].fid) : undefined
      E[i].fam = fi === undefined ? i : fi
    }
    // Segments: English first, then locales in the order given; a locale's core before its extension.
    const order = []
    for (const p of packs) if (!order.includes(segName(p))) order.push(segName(p))
    order.sort((a, b) => (b === 'en') - (a === 'en')) // stable: English first, the rest as given
    this.segs = []
    this.pText = []
    this.pEntry = []
    this.pField = []
    this.pNTok = []
    this.pSeg = []
    for (const loc of order) {
      const mine = packs.filter((p) => segName(p) === loc)
      mine.sort((a, b) => (b.part === 'core') - (a.part === 'core'))
      this.build(loc, mine)
    }
    // The accumulators of a search: per phrase (n), per entry (m) and per query unit.
    const n = this.pText.length, m = E.length
    Object.assign(this, {
      pStamp: new Uint32Array(n),
      pSum: new Float32Array(n),
      pCur: new Float32Array(n),
      pUnit: new Int8Array(n),
      pU: new Uint8Array(n), // bit per unit a phrase matched
      pTypo: new Uint8Array(n),
      pCw: new Float32Array(n), // coverage weight of the units a phrase matched
      eStamp: new Uint32Array(m),
      eUnits: new Float32Array(m * MAX_UNITS),
      eBest: new Float32Array(m),
      ePhrase: new Int32Array(m),
      eField: new Uint8Array(m),
      eTypo: new Uint8Array(m),
      eRel: new Uint8Array(m),
      fStamp: new Uint32Array(m),
      fHit: new Int32Array(m),
      fHead: new Float32Array(m),
      hS: new Float32Array(m), // rank: hit score and field per entry
      hF: new Uint8Array(m),
      gen: 0,
      uw: new Float32Array(MAX_UNITS),
      cov: new Float32Array(MAX_UNITS), // share of each unit in coverage: 1, STOP_W for a function word
      tP: [],
      tE: [],
    })
  }

  build(loc, packs) {
    const s = new Seg(loc)
    const si = this.segs.length
    this.segs.push(s)
    // A text once per entry and locale: an entry's phrases are one row per
    // pack, so a new text is checked against the row so far and the entry's
    // row of the locale's first pack.
    const first = new Int32Array(this.E.length).fill(-1)
    const firstEnd = new Int32Array(this.E.length)
    // Editorial phrases are deduplicated apart (one may repeat a dictionary phrase to rank it).
    const same = (i, text, ed) => pText[i] === text && pField[i] >= 5 === ed
    const dup = (text, ei, rowStart, ed) => {
      for (let i = rowStart; i < pText.length; i++) if (same(i, text, ed)) return true
      for (let i = first[ei]; i >= 0 && i < firstEnd[ei]; i++) if (same(i, text, ed)) return true
      return false
    }
    // A spaced token's term and stem table ids, looked up once: one Map
    // lookup per token instead of three (the largest cost of loading).
    const tok = new Map() // token -> k
    const tTerm = [], tStem = []
    const { pText, pEntry, pField, pNTok, pSeg } = this
    for (const p of packs) {
      const x = p.rowIndex
      const core = p.part !== 'ext'
      if (p.part === 'core' && p.groups) s.grp = p.groups.slice(0, 10)
      const cols = [x.name, x.shortcode, x.keyword, x.alias, x.low, x.editorial, x.editorial_more]
      for (const r of p.rows) {
        const ei = this.ids.get(r[x.id])
        if (ei === undefined) continue
        if (core && r[x.name]) s.lab[ei] = r[x.label]
        const rowStart = pText.length
        for (let fi = 0; fi < NF; fi++) {
          const cell = r[cols[fi]]
          if (!cell) continue
          const list = cell.split('|')
          for (let k = 0; k < list.length; k++) {
            const raw = list[k]
            if (isSymbolic(raw)) {
              const sk = symbolKey(raw)
              const l = s.sym.get(sk)
              l ? l.push((ei << 3) | fi) : s.sym.set(sk, [(ei << 3) | fi])
            }
            const text = normalize(raw, 0)
            if (!text || dup(text, ei, rowStart, fi >= 5)) continue // once per entry, in its first (strongest) field
            const pid = pText.length
            const ascii = isAscii(text)
            const toks = ascii ? text.split(' ') : tokenize(text)
            pText.push(text)
            pEntry.push(ei)
            pField.push(fi)
            pNTok.push(Math.min(toks.length, 255))
            pSeg.push(si)
            s.n++
            for (let j = 0; j < toks.length; j++) {
              const t = toks[j]
              if (ascii || !isUnspaced(t)) {
                let k = tok.get(t)
                if (k === undefined) tok.set(t, (k = tTerm.length)), tTerm.push(s.terms.id(t)), tStem.push(s.stems.id(stem(t)))
                s.terms.addId(tTerm[k], pid)
                s.stems.addId(tStem[k], pid)
                continue
              }
              s.terms.add(t, pid)
              const cs = Array.from(t)
              s.maxW = Math.max(s.maxW, cs.length)
              for (let i = 0; i < cs.length; i++) {
                s.grams.add(cs[i], pid)
                if (i > 0) s.grams.add(cs[i - 1] + cs[i], pid)
              }
            }
          }
        }
        if (first[ei] < 0) first[ei] = rowStart, firstEnd[ei] = pText.length
      }
    }
    s.terms.seal()
    s.stems.seal()
    s.grams.seal()
  }

  // text is the normalized text of phrase pid (a binary segment decodes it on first use).
  text(pid) {
    return this.pText[pid]
  }

  label(ei, loc) {
    if (loc >= 0 && this.segs[loc].lab[ei]) return this.segs[loc].lab[ei]
    return this.segs[0].lab[ei] || this.E[ei].label || ''
  }

  lookup(emoji) {
    // Emoji keys (no FE0F, no tones) -> entry, built on first use.
    if (!this.keys) {
      this.keys = new Map()
      for (let i = this.E.length; i--;) this.keys.set(emojiKey(this.E[i].emoji), i) // the first entry of a key last
    }
    return this.keys.get(emojiKey(emoji))
  }

  known(t, mask) {
    for (let si = 0; si < this.segs.length; si++) if (mask[si] && this.segs[si].terms.has(t)) return true
    return false
  }

  // units turns tokens into query units (Go: Index.Units).
  units(tokens, prefix, mask) {
    const out = []
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]
      const c = (t.length !== 3 || !this.known(t, mask)) && clockTime(tokens, i)
      if (c) {
        out.push({ t: c[0], u: false, k: i })
        if (c[1]) out.push({ t: c[1], u: false, k: i })
        continue
      }
      if (!isUnspaced(t)) {
        out.push({ t, u: false, k: i })
        continue
      }
      if (this.known(t, mask) || (prefix && i === tokens.length - 1 && this.segs.some((s, si) => mask[si] && rangeLen(s.range(t)) > 0))) {
        out.push({ t, u: true, k: i })
        continue
      }
      let mw = 0
      this.segs.forEach((s, si) => { if (mask[si]) mw = Math.max(mw, s.maxW) })
      for (const g of this.segWords(t, mw, true, mask)) out.push({ t: g, u: true, k: i })
    }
    return out.slice(0, MAX_UNITS)
  }

  relax(units, mask) {
    const out = []
    for (const u of units) {
      if (u.u || utf8Len(u.t) < 5 || this.known(u.t, mask) || this.segs.some((s, si) => mask[si] && s.stems.has(stem(u.t)))) {
        out.push(u)
        continue
      }
      const g = this.segWords(u.t, 16, false, mask)
      if (!g || g.length !== 2) out.push(u)
      else for (const x of g) out.push({ t: x, u: false, k: u.k })
    }
    return out.slice(0, MAX_UNITS)
  }

  segWords(t, maxWord, unknownOK, mask) {
    const cs = Array.from(t).slice(0, 64)
    const n = cs.length
    const cost = [0]
    const from = [0]
    for (let i = 1; i <= n; i++) {
      cost[i] = cost[i - 1] + 3
      from[i] = i - 1
      for (let j = Math.max(0, i - maxWord); j < i - 1; j++) {
        if (cost[j] + 2 < cost[i] && this.known(cs.slice(j, i).join(''), mask)) cost[i] = cost[j] + 2, from[i] = j
      }
      if (unknownOK && cost[i - 1] + 2 < cost[i] && this.known(cs[i - 1], mask)) cost[i] = cost[i - 1] + 2, from[i] = i - 1
    }
    const segs = []
    for (let i = n; i > 0; i = from[i]) {
      if (!unknownOK && i - from[i] < 2) return null
      segs.push(cs.slice(from[i], i).join(''))
    }
    return segs.reverse()
  }

  // search ranks entries for the units (Go: Index.Search); p: {limit, prefix, loc, mask, relaxed}.
  search(units, p) {
    if (!units.length || p.limit <= 0) return []
    if (++this.gen > 0xfffffff0) {
      this.pStamp.fill(0), this.eStamp.fill(0), this.fStamp.fill(0)
      this.gen = 1
    }
    this.tP.length = 0
    this.tE.length = 0
    // English phrases weigh ENGLISH in a search of another locale.
    this.segW = this.segs.map((s) => (p.loc >= 0 && s.locale === 'en' && this.segs[p.loc].locale !== 'en' ? ENGLISH : 1))
    this.uw.fill(1)
    this.cov.fill(1)
    // One unit: weight 1, no function word to set apart (stopW sets the sums).
    if (units.length > 1) this.idfW(units, p)
    this.stopW(units, p)
    // Query shape: several words, a gender named, flags allowed (one word, or "flag" named), one unspaced word.
    this.multi = units.some((u) => u.k !== units[0].k)
    this.gend = units.some((u) => this.gender.has(u.t) || /[女男]/.test(u.t))
    this.flags = !this.multi || units.some((u) => this.flag.has(u.t))
    this.uns = units[0].u && !this.multi
    for (let ui = 0; ui < units.length; ui++) this.mUnit(ui, units[ui], p.prefix && ui === units.length - 1, p)
    this.score(units.length, p)
    this.near()
    return this.rank(p.limit)
  }

  // stopWeights gives the function words of a query that also holds a
  // content word STOP_W (weight and coverage) and lists them in sSet: they
  // alone never carry a phrase; a last unit still being typed keeps its
  // weight ("the" may become "theatre").
  stopW(units, p) {
    const stop = units.map((u, ui) => !(p.prefix && ui === units.length - 1) && this.isStop(u.t, p))
    const content = stop.includes(false)
    let uwSum = 0, covSum = 0, sSet = 0
    for (let ui = 0; ui < units.length; ui++) {
      if (content && stop[ui]) this.uw[ui] = this.cov[ui] = STOP_W, sSet |= 1 << ui
      uwSum = f(uwSum + this.uw[ui])
      covSum = f(covSum + this.cov[ui])
    }
    this.uwSum = uwSum, this.covSum = covSum, this.sSet = sSet
  }

  isStop(word, p) {
    const locs = this.stop.get(word)
    if (!locs || (p.loc >= 0 && this.notStop[this.segs[p.loc].locale]?.includes(word))) return false
    return this.segs.some((s, si) => p.mask[si] && locs.includes(s.locale))
  }

  idfW(units, p) {
    const uw = this.uw
    let n = 0
    this.segs.forEach((s, si) => { if (p.mask[si]) n += s.n })
    const idf = []
    let sum = 0, known = 0
    for (let ui = 0; ui < units.length; ui++) {
      const u = units[ui]
      let df = this.df(p.mask, u.t, 'terms')
      if (!df) df = u.u ? this.df(p.mask, u.t, 'grams') : this.df(p.mask, stem(u.t), 'stems')
      idf[ui] = 0
      if (df > 0) {
        idf[ui] = Math.sqrt(Math.log(1 + n / df))
        sum += idf[ui]
        known++
      }
    }
    if (!known) return
    const mean = sum / known
    for (let ui = 0; ui < units.length; ui++) if (idf[ui] > 0) uw[ui] = idf[ui] / mean
  }

  df(mask, key, table) {
    let df = 0
    for (let si = 0; si < this.segs.length; si++) {
      const t = this.segs[si][table]
      const id = mask[si] ? t.get(key) : undefined
      if (id !== undefined) for (let j = t.off[id]; j < t.off[id + 1]; j++) if (this.pField[t.post[j]] !== LOW) df++
    }
    return df
  }

  mUnit(ui, u, last, p) {
    let matched = false
    const blen = utf8Len(u.t)
    // A unit of one or two bytes typed after others completes only the phrases they matched, unless they matched
    // none or that matches nothing (Go: narrowBelow): last is 2 for that pass, 1 for the one after it.
    if (last === true && ui && blen < 3 && this.tP.length) last = 2
    for (let si = 0; si < this.segs.length; si++) {
      if (!p.mask[si]) continue
      const seg = this.segs[si]
      let maxLen = 0
      if (last && rangeLen(seg.range(u.t)) > FANOUT) maxLen = 4 * blen
      matched = this.mSeg(si, seg, ui, u, last, maxLen, blen, p) || matched
    }
    if (last > 1 && !matched) return this.mUnit(ui, u, 1, p)
    const r0 = u.t.codePointAt(0) // typos only in alphabets: Latin (with Extended-A/B, Additional), Greek, Cyrillic
    if (matched || u.u || !(r0 < 0x250 || (r0 >= 0x370 && r0 < 0x530) || (r0 >= 0x1e00 && r0 < 0x1f00))) return
    const n = Array.from(u.t).length
    if (n < 4 && !(p.lax && n === 3)) return
    const maxD = n >= 8 || (p.lax && n >= 5) ? 2 : 1
    for (let si = 0; si < this.segs.length; si++) if (p.mask[si]) matched = this.mTypos(si, this.segs[si], ui, u.t, blen, maxD, p) || matched
    if (matched || !p.lax) return
    // Last resort: the longest shortened form (at least 3 bytes) that starts some words.
    const bounds = [] // byte offset -> JS offset at character starts
    for (let i = 0, b = 0; i < u.t.length; i++) {
      bounds[b] = i
      const c = u.t.charCodeAt(i)
      b += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xdc00 ? (i++, 4) : 3
    }
    for (let cutB = blen - 1; cutB >= 3 && !matched; cutB--) {
      if (bounds[cutB] === undefined) continue
      const pre = u.t.slice(0, bounds[cutB])
      for (let si = 0; si < this.segs.length; si++) {
        if (!p.mask[si]) continue
        const seg = this.segs[si]
        const [lo, hi] = seg.range(pre)
        for (let k = lo; k < hi && k < lo + 64; k++) {
          const q = f(f(F07 * cutB) / Math.max(utf8Len(seg.key(k)), blen))
          matched = this.list(si, seg.terms, seg.term(k), ui, q, true, p) || matched
        }
      }
    }
  }

  mSeg(si, seg, ui, u, last, maxLen, blen, p) {
    let matched = false
    const exact = seg.terms.get(u.t)
    if (exact !== undefined) matched = this.list(si, seg.terms, exact, ui, 1, false, p) || matched
    if (!u.u) {
      const st = seg.stems.get(stem(u.t))
      if (st !== undefined) matched = this.list(si, seg.stems, st, ui, Q_STEM, false, p) || matched
    }
    if (last && !(blen < seg.min)) {
      const [lo, hi] = seg.range(u.t)
      const n = f(blen)
      for (let t = lo; t < hi; t++) {
        const key = seg.key(t)
        const tl = utf8Len(key)
        if (maxLen > 0 && tl > maxLen) continue
        const id = seg.term(t)
        if (key !== u.t) matched = this.list(si, seg.terms, id, ui, f(Q_PREFIX + f(f(F03 * n) / tl)), last > 1 ? 4 : blen < 2 && 2, p, !ui && ((seg.terms.dm ||= [])[id] ||= this.damp(seg.terms, id))) || matched
      }
    }
    if (u.u) {
      const c = Array.from(u.t).length
      const q = c === 1 ? Q_UNIGRAM : c === 2 ? Q_BIGRAM : 0
      const g = q > 0 ? seg.grams.get(u.t) : undefined
      if (g !== undefined) matched = this.list(si, seg.grams, g, ui, q, false, p) || matched
    }
    return matched
  }

  mTypos(si, seg, ui, text, blen, maxD, p) {
    let matched = false
    const [lo, hi] = seg.range(String.fromCodePoint(text.codePointAt(0)))
    const [qa, qb] = sig(text)
    const sigs = seg.sigs || (seg.sigs = new Map())
    for (let t = lo; t < hi; t++) {
      const term = seg.key(t)
      let s = sigs.get(term)
      if (!s) sigs.set(term, (s = sig(term)))
      if (pop(qa ^ s[0]) + pop(qb ^ s[1]) > 2 * maxD) continue
      const d0 = utf8Len(term) - blen
      if (d0 > maxD || -d0 > maxD) continue
      const d = boundedEditDistance(text, term, maxD)
      if (d <= maxD) matched = this.list(si, seg.terms, seg.term(t), ui, f(1 - f(F015 * (d - 1))), true, p) || matched
    }
    return matched
  }

  // damp returns the factor of each family in a completion's list when it is a one-word query's (Go:
  // Index.fillDamp): the families, best phrase first by field weight and share of the phrase (then entry), count 1, 0.9, 0.81...,
  // no less than 0.9 times 0.001.
  damp(tab, id) {
    const { pEntry, pField, pNTok, E } = this, r = [], fm = (gp) => E[pEntry[gp]].fam
    const st = (gp) => f(W[pField[gp]] * f(F06 + f(F04 / (pNTok[gp] || 1))))
    let v = 1, m
    for (const gp of tab.post.slice(tab.off[id], tab.off[id + 1]).sort((a, b) => st(b) - st(a) || fm(a) - fm(b)))
      if (!r[(m = fm(gp))]) (r[m] = v), v > 1e-3 && (v = f(v * F09))
    return r
  }

  // addList adds every phrase of key id of table tab (segment si) for unit ui at quality q, times its
  // family's factor in d when given (damp). typo: true for a typo match, 2 for a completion of a one-letter word,
  // 4 for a narrowed one (mUnit: only phrases already matched): none reaches related (low) phrases.
  list(si, tab, id, ui, q, typo, p, d) {
    if (typo & 1) q = f(q * W[TYPO])
    q = f(q * this.uw[ui])
    const sw = this.segW[si]
    let added = false
    const { pStamp, pUnit, pCur, pSum, pU, pTypo, pField, pEntry, eStamp, eUnits, gen, pCw, E } = this
    const cw = this.cov[ui]
    const list = tab.post
    for (let j = tab.off[id], end = tab.off[id + 1]; j < end; j++) {
      const gp = list[j], ei = pEntry[gp], qd = d ? f(q * d[E[ei].fam]) : q
      const field = pField[gp]
      if (typo && field === LOW || typo & 4 && pStamp[gp] !== gen) continue
      added = true
      if (pStamp[gp] !== gen) {
        pStamp[gp] = gen, pSum[gp] = 0, pCur[gp] = 0, pUnit[gp] = ui, pU[gp] = 1 << ui, pTypo[gp] = 0, pCw[gp] = cw
        this.tP.push(gp)
      } else if (pUnit[gp] !== ui) {
        pSum[gp] = pSum[gp] + pCur[gp]
        pCur[gp] = 0
        pUnit[gp] = ui
        pU[gp] |= 1 << ui
        pCw[gp] = pCw[gp] + cw
      }
      if (typo & 1) pTypo[gp] = 1
      if (qd > pCur[gp]) pCur[gp] = qd
      if (eStamp[ei] !== gen) this.touch(ei)
      const v = f(f(qd * sw) * W[field])
      if (v > eUnits[ei * MAX_UNITS + ui]) eUnits[ei * MAX_UNITS + ui] = v
    }
    return added
  }

  // touch starts an entry's accumulator in this search.
  touch(ei) {
    this.eStamp[ei] = this.gen
    this.eBest[ei] = 0, this.ePhrase[ei] = -1, this.eField[ei] = 0, this.eTypo[ei] = 0, this.eRel[ei] = 0
    const u = this.eUnits, o = ei * MAX_UNITS
    u[o] = u[o + 1] = u[o + 2] = u[o + 3] = u[o + 4] = u[o + 5] = u[o + 6] = u[o + 7] = 0
    this.tE.push(ei)
  }

  score(nunits, p) {
    const nu = this.uwSum
    const { pField, pNTok, pEntry, pSeg, pSum, pCur, pU, pTypo, pCw, eBest, ePhrase, eField, eTypo, eUnits, E: E, covSum, sSet } = this
    for (const pid of this.tP) {
      const field = pField[pid], ntok = pNTok[pid], e = pEntry[pid]
      if (ePhrase[e] < 0 || (eBest[e] === 0 && this.before(pid, field, ePhrase[e], eField[e]))) ePhrase[e] = pid, eField[e] = field
      const m = pU[pid], cnt = pop(m)
      // Too little of the query covered, or function words alone (they never carry a phrase).
      if ((nunits > 1 && f(pCw[pid] / covSum) < this.minCov && !p.lax) || !(m & ~sSet)) continue
      const pcov = Math.min(1, f(cnt / Math.max(ntok, 1)))
      const flag = E[e].flag && !this.uns
      // A flag never answers one word of a longer query ("in love"): its phrase holds every content word.
      if (flag && !this.flags && ((1 << nunits) - 1) & ~m & ~sSet) continue
      let w = W[field]
      if (nunits > 1 && field === 1 && ntok === 1 && utf8Len(this.text(pid)) <= 2) w = f(w * 0.5) // "in", "ok": a code, not a word of the sentence
      const sc = f(pSum[pid] + pCur[pid])
      let v = f(f(f(f(w * this.segW[pSeg[pid]]) * sc) / nu) * f(F06 + f(F04 * pcov)))
      // The query is this phrase, word for word: above every match of parts of it.
      if (nunits > 1 && cnt === nunits && ntok === nunits && !pTypo[pid] && field !== LOW && sc >= f(nu * F0999)) v = f(v * 2)
      // A flag whose phrase the query names only in part ("cook" in "cook islands") is damped.
      if (flag && !(field !== LOW && (cnt >= ntok || (field === 0 && cnt + 1 === ntok)))) v = f(v * 0.5)
      if (v > eBest[e] || (v === eBest[e] && (field < eField[e] || (field === eField[e] && this.before(pid, field, ePhrase[e], eField[e]))))) {
        eBest[e] = v, ePhrase[e] = pid, eField[e] = field, eTypo[e] = pTypo[pid]
      }
    }
    if (nunits < 2) return
    for (const ei of this.tE) {
      if (E[ei].flag && !this.flags) continue
      let sum = 0, covered = 0, con = 0
      for (let u = 0; u < nunits; u++) {
        const x = eUnits[ei * MAX_UNITS + u]
        if (x > 0) sum = f(sum + x), covered = f(covered + this.cov[u]), con |= 1 << u
      }
      if (con & ~sSet && (f(covered / covSum) >= this.minCov || p.lax)) {
        const v = f(f(F09 * sum) / nu)
        if (v > eBest[ei]) eBest[ei] = v
      }
    }
  }

  // before orders two phrases of one entry: stronger field, locale loaded first, text, id.
  before(a, fa, b, fb) {
    if (fa !== fb) return fa < fb
    const sa = this.pSeg[a], sb = this.pSeg[b]
    if (sa !== sb) return sa < sb
    const ta = this.text(a), tb = this.text(b)
    if (ta !== tb) return cmpUTF8(ta, tb) < 0
    return a < b
  }

  near() {
    const { eBest, ePhrase, E: E } = this
    const parents = [] // the best 5 entries, best first
    for (const ei of this.tE) if (ePhrase[ei] >= 0 && eBest[ei] > 0) insert(parents, ei, 5, (a, b) => eBest[a] > eBest[b] || (eBest[a] === eBest[b] && a < b))
    for (const pi of parents) {
      if (E[pi].flag) continue // flags are ordered by name, not by meaning
      const best = eBest[pi], phrase = ePhrase[pi], field = this.eField[pi], typo = this.eTypo[pi]
      for (const step of [-1, 1]) {
        let fam = E[pi].fam, d = 0
        for (let ni = pi + step; ni >= 0 && ni < E.length && E[ni].sub === E[pi].sub && !E[ni].custom; ni += step) {
          const fm = E[ni].fam
          if (fm !== fam) {
            fam = fm
            if (++d > 3) break
          }
          if (d === 0) continue
          const v = f(f(best * F03) * f(1 - f(F01 * d)))
          if (this.eStamp[ni] !== this.gen) this.touch(ni)
          if (v > eBest[ni]) eBest[ni] = v, ePhrase[ni] = phrase, this.eField[ni] = field, this.eTypo[ni] = typo, this.eRel[ni] = 1
        }
      }
    }
  }

  // rank returns the best hits, one per family, each followed by its
  // family's other gender members when the query named no gender (Go:
  // Index.rank and expand). Hits are entry indices until the output.
  rank(limit) {
    const { eBest, ePhrase, E: E, fStamp, fHit, fHead, gen, hS, hF } = this
    const hits = []
    const others = []
    const better = (a, b) => (hS[a] !== hS[b] ? hS[a] > hS[b] : a < b)
    const addOther = (ei) => { if (!E[ei].id.includes('200D-27A1')) others.push(ei) }
    // rep: a represents its family rather than b; the older emoji, or else
    // the family's head, scores BONUS times more (Go: Index.represents).
    const rep = (a, b) => {
      let sa = hS[a], sb = hS[b]
      if (E[a].ver < E[b].ver) sa = f(sa * BONUS)
      else if (E[b].ver < E[a].ver) sb = f(sb * BONUS)
      else if (E[a].fam === a) sa = f(sa * BONUS)
      else if (E[b].fam === b) sb = f(sb * BONUS)
      return sa !== sb ? sa > sb : a < b
    }
    for (const ei of this.tE) {
      if (ePhrase[ei] < 0 || eBest[ei] <= 0) continue
      const ent = E[ei]
      hS[ei] = f(eBest[ei] * f(F09 + f(f(F01 * ent.prior) / 100)))
      hF[ei] = this.eRel[ei] ? LOW : this.eTypo[ei] ? TYPO : this.eField[ei]
      const fm = ent.fam
      if (fStamp[fm] !== gen) {
        fStamp[fm] = gen, fHit[fm] = hits.length, fHead[fm] = 0
        hits.push(ei)
      } else if (rep(ei, hits[fHit[fm]])) {
        addOther(hits[fHit[fm]])
        hits[fHit[fm]] = ei
      } else addOther(ei)
      if (fm === ei) fHead[fm] = hS[ei]
    }
    const top = [] // the best limit hits, best first
    for (const h of hits) insert(top, h, limit, better)
    let out = top
    if (others.length) {
      // Each family shows one member in the first FAMILY_TOP places (two
      // when an older gendered member represents it: the neutral one
      // follows); its other members follow from there, at once past those
      // places or when the query names a gender (Go: Index.expand).
      out = []
      const take = (i) => {
        out.push(others[i])
        others[i] = others[others.length - 1]
        others.pop()
      }
      const follow = (fm) => {
        while (out.length < limit) {
          let best = -1
          for (let i = 0; i < others.length; i++) if (E[others[i]].fam === fm && (best < 0 || better(others[i], others[best]))) best = i
          if (best < 0) break
          take(best)
        }
      }
      let waiting = []
      const flush = () => {
        for (const fm of waiting) follow(fm)
        waiting = []
      }
      for (const h of top) {
        if (out.length >= FAMILY_TOP) flush()
        if (out.length >= limit) break
        out.push(h)
        const fm = E[h].fam
        const direct = hF[h] !== LOW && hF[h] !== TYPO
        const noGender = fm === h || f(fHead[fm] * BONUS) >= hS[h]
        if (!direct || !noGender) continue
        if (this.gend || out.length >= FAMILY_TOP) {
          flush()
          follow(fm)
        } else if (waiting.length < FAMILY_TOP) {
          if (fm !== h && out.length < limit) {
            const i = others.indexOf(fm)
            if (i >= 0) take(i)
          }
          waiting.push(fm)
        }
      }
      flush()
    }
    return out.map((e) => ({ e, s: hS[e], p: ePhrase[e], f: hF[e] }))
  }

}

const rangeLen = (r) => r[1] - r[0]
// insert puts h into top, a list of at most k kept best first by better.
function insert(top, h, k, better) {
  let i = top.length
  while (i && better(h, top[i - 1])) i--
  if (i < k) top.splice(i, 0, h), top.length > k && top.pop()
}
function sig(s) {
  let a = 0, b = 0
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i)
    if (c >= 0xd800 && c < 0xdc00) c = s.codePointAt(i++)
    const bit = c & 63
    if (bit < 32) a |= 1 << bit
    else b |= 1 << (bit - 32)
  }
  return [a, b]
}
function pop(x) {
  let n = 0
  for (; x; x &= x - 1) n++
  return n
}

const isDigits = (t) => /^[0-9]+$/.test(t)
function clockTime(tokens, i) {
  const t = tokens[i]
  if (!isDigits(t)) return null
  let h, m
  if (t.length === 3 || t.length === 4) h = t.slice(0, -2), m = t.slice(-2)
  else if (t.length === 2 && t > '12' && t < '24' && i + 1 < tokens.length && tokens[i + 1].length === 2 && isDigits(tokens[i + 1])) return [String(+t - 12), '']
  else return null
  let hour = +h
  if (hour > 23 || m[0] > '5') return null
  hour %= 12
  return [String(hour || 12), m]
}

// emojiIn finds known emoji written in the query (its first MAX_QUERY_LENGTH characters).
function emojiIn(ix, query) {
  const found = []
  let run = ''
  const flush = () => {
    if (!run) return
    const i = ix.lookup(run)
    if (i !== undefined) found.push(i)
    else for (const ch of run) { const j = ix.lookup(ch); if (j !== undefined) found.push(j) }
    run = ''
  }
  let n = 0
  for (const ch of query) {
    if (++n > MAX_QUERY_LENGTH) break
    const r = ch.codePointAt(0)
    const k = r < 0x80 ? 0 : charClass(r)
    if (r < 0x80 || k & 16 || k & 64 || (k & 32 && r < 0x2000)) flush()
    else run += ch
  }
  flush()
  return found
}

/** AliasEngine: synchronous dictionary search over the loaded packs (spec 3). */
class AliasEngine {
  // The package root's engine (create.js) extends this one with the
  // culture layer; the bare core refuses a culture file.
  constructor(ix, culture) {
    if (culture && this.constructor === AliasEngine) throw new TypeError('emojisearch/core: culture needs the package root')
    this._ix = ix
    this.culture = culture || undefined
  }
  get packVersion() { return this._ix.packVersion }
  get locales() { return this._ix.segs.map((s) => s.locale).filter((l) => l !== 'custom') }
  get entries() {
    return this._es || (this._es = this._ix.E.map((_, i) => this._e(i)))
  }
  withCulture(culture) {
    return new this.constructor(this._ix, culture)
  }
  _e(i) {
    const ix = this._ix
    const e = ix.E[i]
    const labels = {}
    ix.segs.forEach((s) => { if (s.lab[i]) labels[s.locale] = s.lab[i] })
    const out = { emoji: e.emoji, id: e.id, group: e.group, version: e.ver / 10, hasSkinTones: e.skins, labels }
    Object.assign(out, e.custom)
    return out
  }
  /** get returns the entry of an id (hexcode, any tone or FE0F form) or of an emoji. */
  get(id) {
    const ix = this._ix
    id = String(id ?? '')
    // An id, an emoji, a hexcode; tones and FE0F dropped (emojiKey), and a
    // couple with two tones is the emoji its tones fold into (👩🏻‍🤝‍👨🏿 is 👫;
    // the English core pack's words.couples).
    const k = emojiKey(emojiOfHex(id) || id)
    const i = ix.ids.get(id) ?? ix.lookup(k) ?? ix.lookup(ix.couples[k] || '')
    return i === undefined ? undefined : this._e(i)
  }
  search(query, options = {}) {
    const ix = this._ix
    const limit = options.limit > 0 ? Math.floor(options.limit) : 24
    const prefix = options.prefix !== false
    query = String(query ?? '')
    const q = normalize(query, MAX_QUERY_LENGTH)
    const tokens = tokenize(q)
    const lang = language(options.locale)
    const mask = []
    let loc = -1
    ix.segs.forEach((s, si) => {
      mask[si] = !lang || s.locale === lang || s.locale === 'en' || s.locale === 'custom'
      if (s.locale === lang) loc = si
    })
    let results = []
    const seen = new Set()
    const push = (ei, score, match, field, to = results) => {
      seen.add(ei)
      const e = ix.E[ei]
      const r = { emoji: e.emoji, id: e.id, score, source: e.custom ? 'custom' : 'alias', label: ix.label(ei, loc), match, field }
      Object.assign(r, e.custom)
      to.push(r)
    }
    for (const ei of emojiIn(ix, query)) if (!seen.has(ei) && results.length < limit) push(ei, 1, ix.E[ei].emoji, 'name')
    const sk = symbolKey(query)
    if (sk) {
      ix.segs.forEach((s, si) => {
        for (const v of s.sym.get(sk) || []) {
          if (mask[si] && !seen.has(v >> 3) && results.length < limit) push(v >> 3, 1, sk, FIELDS[v & 7])
        }
      })
    }
    const find = (m, relax) => {
      const p = { limit, prefix, loc, mask: m, lax: false }
      const units = ix.units(tokens, prefix, m)
      const hits = ix.search(units, p)
      if (relax && !hits.length && units.length) {
        p.lax = true
        for (const h of ix.search(ix.relax(units, m), p)) h.s = Math.min(h.s, F099), hits.push(h)
      }
      return hits
    }
    const add = (hits, to) => {
      for (const h of hits) if (!seen.has(h.e) && to.length < limit) push(h.e, Math.min(h.s, 1), ix.text(h.p), FIELDS[h.f], to)
    }
    // The dictionary ranks as if there were no custom pack; the custom
    // emoji matched apart come first, within limit (spec 1, custom emoji
    // rule 1: the search API's order).
    const ci = ix.segs.findIndex((s) => s.locale === 'custom')
    add(find(mask.map((m, si) => m && si !== ci), !results.length), results)
    const conf = results.length ? results[0].score : 0
    if (ci >= 0) {
      const custom = []
      add(find(mask.map((_, si) => si === ci), true), custom)
      results = [...custom, ...results].slice(0, limit)
    }
    return { query: q, tokens, results, confidence: conf }
  }
}

/**
 * createEngine builds an AliasEngine from a pack or a list of packs (the
 * English core pack is required). Options: minCoverage (0.34) and culture.
 * This is the bare search core (client/core.js); the package root's
 * createEngine passes its engine class, which adds the culture layer.
 */
export function createEngine(input, options = {}, Engine = AliasEngine, Ix = Index) {
  const packs = (Array.isArray(input) ? input : [input]).map(assertPack)
  const mc = options.minCoverage ?? 0.34
  if (!(mc > 0 && mc <= 1)) throw new RangeError('emojisearch: minCoverage must be in (0, 1]')
  return new Engine(new Ix(packs, mc), options.culture)
}
export { AliasEngine, Index, Seg }
