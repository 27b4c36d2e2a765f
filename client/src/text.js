// Text rules of the engine, ported from engine/internal/textnorm (Go): the
// library and the Go engine must normalise, tokenise, stem and measure typos
// identically, so queries and phrases meet the same way on both sides.

/** Characters of a query that are searched. */
export const MAX_QUERY_LENGTH = 64

const cache = new Map() // code point -> class bits (see cls)
/** Go's unicode.IsSpace, as a character class. */
export const WS = /[\t\n\v\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/
const reLN = /[\p{L}\p{N}\p{Mc}]/u
const reMark = /[\p{Mn}\p{Me}]/u
const reLatin = /\p{Script=Latin}/u
const reUnspaced = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u

// cls: 1 letter/number/Mc, 2 mark, 4 Latin, 8 unspaced script, 16 letter, 32 number, 64 space.
function cls(cp) {
  let v = cache.get(cp)
  if (v === undefined) {
    const c = String.fromCodePoint(cp)
    v = reLN.test(c) | (reMark.test(c) << 1) | (reLatin.test(c) << 2) |
      ((cp >= 0x2e80 && (reUnspaced.test(c) || cp === 0x30fc)) << 3) | (/\p{L}/u.test(c) << 4) |
      (/\p{N}/u.test(c) << 5) | (WS.test(c) << 6)
    cache.set(cp, v)
  }
  return v
}
export const charClass = cls

/** Unspaced reports letters of scripts written without spaces (Han, kana, Thai). */
export const unspaced = (cp) => cp >= 0x2e80 && (cls(cp) & 8) !== 0

/** isUnspaced reports whether a token starts with an unspaced-script letter. */
export const isUnspaced = (tok) => tok.length > 0 && unspaced(tok.codePointAt(0))

/** utf8Len is the length of s in UTF-8 bytes (the Go engine counts bytes). */
export function utf8Len(s) {
  let n = s.length
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0x80) n += c < 0x800 || (c >= 0xd800 && c < 0xe000) ? 1 : 2
  }
  return n
}

// Native string operations only: packs are normalised once at load,
// mostly before the JIT has warmed up, and per-character loops in
// interpreted code cost ten times more.
export const isAscii = (s) => !/[^\0-\x7f]/.test(s)

/** cut returns the first n characters (code points) of s. */
export function cut(s, n) {
  let i = 0
  for (let k = 0; i < s.length && k < n; k++) {
    const c = s.charCodeAt(i)
    i += c >= 0xd800 && c < 0xdc00 && i + 1 < s.length ? 2 : 1
  }
  return s.slice(0, i)
}

// Latin letters that fold to other letters, by code point: ß æ œ ø đ ł þ ð ı ħ.
const folds = { 0xdf: 'ss', 0xe6: 'ae', 0x153: 'oe', 0xf8: 'o', 0x111: 'd', 0x142: 'l', 0xfe: 'th', 0xf0: 'd', 0x131: 'i', 0x127: 'h' }
const foldCp = { 0x451: 0x435, 0x622: 0x627, 0x623: 0x627, 0x625: 0x627, 0x671: 0x627, 0x649: 0x64a, 0x6cc: 0x64a, 0x629: 0x647, 0x6a9: 0x643 }
const lowerCache = new Map()
function lower(cp) {
  if (cp < 0x80) return cp >= 65 && cp <= 90 ? cp + 32 : cp
  let v = lowerCache.get(cp)
  if (v === undefined) {
    const l = String.fromCodePoint(cp).toLowerCase()
    v = l.codePointAt(0)
    if (l.length !== (cp > 0xffff ? 2 : 1)) v = cp // multi-character lowercase: Go keeps the simple mapping
    lowerCache.set(cp, v)
  }
  return v
}
// Apostrophes, tatweel, ZWNJ/ZWJ and variation selectors vanish ("don't" = "dont").
const dropped = /* @__PURE__ */ new Set([39, 0x2019, 0x2bc, 0x640, 0x200c, 0x200d, 0xfe0f, 0xfe0e])
const isArabicMark = (r) => (r >= 0x610 && r <= 0x61a) || (r >= 0x64b && r <= 0x65f) || r === 0x670 || (r >= 0x6d6 && r <= 0x6ed)

// normalizeASCII: letters lowercased, digits kept, apostrophes dropped
// ("don't" = "dont"), every other run of characters one space, no space at
// either end (Go: textnorm.normalizeASCII).
// Text already in that form (most pack phrases) is returned as it is.
const normalizeASCII = (s) => (/^[a-z0-9]+(?: [a-z0-9]+)*$/.test(s) ? s : s.toLowerCase().replace(/'/g, '').replace(/[^a-z0-9]+/g, ' ').trim())

/**
 * normalize lowercases, folds compatibility forms (NFKC), strips Latin
 * accents, folds Arabic variants and turns punctuation, symbols and emoji
 * into single spaces; only the first maxLength characters are read.
 */
export function normalize(input, maxLength = 0) {
  let s = String(input ?? '')
  if (maxLength > 0) s = cut(s, maxLength)
  if (isAscii(s)) return normalizeASCII(s)
  s = s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, ' ').normalize('NFKD')
  let b = ''
  let space = true
  let prevLatin = false
  let prev = 0
  for (const ch of s) {
    const r = ch.codePointAt(0)
    const k = cls(r)
    if (k & 2) {
      if (space || prevLatin || isArabicMark(r) || (r === 0x308 && (prev === 0x435 || prev === 0x456))) continue
      b += ch
      continue
    }
    if (dropped.has(r)) continue
    prevLatin = false
    prev = lower(r)
    if (k & 1) {
      const l = prev
      const f = folds[l]
      if (f) {
        b += f
        space = false
        prevLatin = true
        continue
      }
      prevLatin = (cls(l) & 4) !== 0
      b += String.fromCodePoint(foldCp[l] ?? l)
      space = false
    } else if (!space) {
      b += ' '
      space = true
    }
  }
  if (b.endsWith(' ')) b = b.slice(0, -1)
  return isAscii(b) ? b : b.normalize('NFC')
}

/** tokenize splits a normalized string at spaces and where unspaced text meets other scripts. */
export function tokenize(normalized) {
  const out = []
  for (const f of normalized.split(' ')) {
    if (!f) continue
    let start = 0
    let prev = -1
    for (let i = 0; i < f.length; i++) {
      const c = f.charCodeAt(i)
      if (c >= 0xdc00 && c < 0xe000) continue // second half of a pair
      const u = c >= 0x2e80 && unspaced(f.codePointAt(i)) ? 1 : 0
      if (prev >= 0 && u !== prev) out.push(f.slice(start, i)), start = i
      prev = u
    }
    out.push(f.slice(start))
  }
  return out
}

const cyrillic = /* @__PURE__ */ 'ами ями ого его ому ему ыми ими ов ев ей ой ый ий ая яя ое ее ые ие ом ем ам ям ах ях а я ы и о е у ю ь'.split(' ')
const turkish = /* @__PURE__ */ 'leri ları ler lar'.split(' ')
const runeCount = (s) => { let n = 0; for (let i = 0; i < s.length; i++) { const c = s.charCodeAt(i); if (c < 0xdc00 || c >= 0xe000) n++ } return n }

function stemSuffixes(tok, endings, minRunes) {
  for (const e of endings) if (tok.endsWith(e) && runeCount(tok) - runeCount(e) >= minRunes) return tok.slice(0, tok.length - e.length)
  return tok
}

/** stem is the light stem used by index and query alike (plurals, verb endings, Cyrillic and Turkish endings). */
export function stem(tok) {
  const r = tok.codePointAt(0)
  if (r < 0x250) return stemLatin(tok)
  if (r >= 0x400 && r < 0x500) return stemSuffixes(tok, cyrillic, 3)
  return tok.replace(/^و?ال(?=..)/, '') // Arabic article
}

const cvc = (w) => /^[^aeiouy]+[aeiouy][b-df-hj-np-tvz]$/.test(w)

function stemLatin(w) {
  const L = isAscii(w) ? (x) => x.length : utf8Len // Go counts bytes
  let n = L(w)
  if (n < 4) return w
  w = stemSuffixes(w, turkish, 3), n = L(w)
  const end = (x) => w.endsWith(x)
  if (end('s')) {
    if (end('ies') && n >= 5) w = w.slice(0, -3) + 'y'
    else if (end('sses')) w = w.slice(0, -2)
    else if (end('shes') || end('ches') || end('xes') || end('zes')) w = w.slice(0, -2)
    else if (!end('ss') && !end('us') && !end('is')) w = w.slice(0, -1)
    n = L(w)
  }
  const cut = end('ing') && n >= 6 ? 3 : (end('ed') && n >= 5) || (end('er') && n >= 6) ? 2 : 0
  if (cut) w = w.slice(0, -cut), n -= cut
  if (end('y') && n >= 4) w = w.slice(0, -1) + 'i'
  // A final e stays after a short consonant-vowel-consonant stem ("hate" is not "hat") and comes back there after a cut ending.
  if (end('e') && n >= 4 && !cvc(w.slice(0, -1))) w = w.slice(0, -1), n--
  const l = w.length
  if (n >= 4 && w[l - 1] === w[l - 2] && 'bdgklmnprt'.includes(w[l - 1])) w = w.slice(0, -1)
  else if (cut && cvc(w)) w += 'e'
  return w
}

/** boundedEditDistance is the optimal-string-alignment distance in characters, or max+1 when above max. */
export function boundedEditDistance(a, b, max) {
  if (max < 0) return 0
  const ar = Array.from(a)
  const br = Array.from(b)
  const d = ar.length - br.length
  if (d > max || -d > max) return max + 1
  if (!ar.length || !br.length) return Math.min(max + 1, ar.length + br.length)
  const m = br.length + 1
  let prev2 = new Array(m).fill(0)
  let prev = new Array(m)
  let cur = new Array(m).fill(0)
  for (let j = 0; j < m; j++) prev[j] = j
  for (let i = 1; i <= ar.length; i++) {
    cur[0] = i
    let rowMin = i
    for (let j = 1; j < m; j++) {
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ar[i - 1] === br[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && ar[i - 1] === br[j - 2] && ar[i - 2] === br[j - 1]) v = Math.min(v, prev2[j - 2] + 1)
      cur[j] = v
      if (v < rowMin) rowMin = v
    }
    if (rowMin > max) return max + 1
    const t = prev2
    prev2 = prev, prev = cur, cur = t
  }
  return Math.min(prev[m - 1], max + 1)
}

/** embeddingText is the lighter form for the meaning tier: NFC, control characters removed, whitespace collapsed, cut to MAX_QUERY_LENGTH; case, accents, punctuation and emoji kept. */
export function embeddingText(input) {
  const s = cut(String(input ?? '').replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, ''), MAX_QUERY_LENGTH).normalize('NFC')
  let b = ''
  let space = true
  for (const ch of s) {
    const r = ch.codePointAt(0)
    if (cls(r) & 64) {
      if (!space) b += ' ', space = true
    } else if (!(r < 0x20 || (r >= 0x7f && r < 0xa0) || r === 0xfffd)) {
      b += ch
      space = false
    }
  }
  return b.endsWith(' ') ? b.slice(0, -1) : b
}
