// Fusion of dictionary and meaning results (spec 3 "Fusion"; Go: engine/fusion).
import { baseId, hexcodeOf, emojiOfHex } from './hex.js'

/** Cosine range of the default model over which the meaning tier's weight rises. */
export const DEFAULT_SEMANTIC_CALIBRATION = /* @__PURE__ */ Object.freeze({ floor: 0.44, ceiling: 0.58 })
const clamp01 = (x) => (x > 1 ? 1 : x >= 0 ? x : 0)
const finite = Number.isFinite
const positiveOr = (x, d) => (x > 0 && x !== Infinity ? x : d)
const cal = (c) => (!c || (!c.floor && !c.ceiling) || !finite(c.floor) || !finite(c.ceiling) ? DEFAULT_SEMANTIC_CALIBRATION : c)

/** shouldUseSemantic: confidence under 0.6, or under 0.9 for two or more words. */
export function shouldUseSemantic(alias) {
  const n = alias?.tokens?.length || 0
  if (n <= 0) return false
  const c = Number.isNaN(alias.confidence) ? 0 : alias.confidence ?? 0
  return c < 0.6 || (n >= 2 && c < 0.9)
}

/**
 * DEFAULT_SESSION_CALIBRATION: the dictionary confidence from which its top
 * 3 holds a right emoji at least 90 % of the time on the development sets
 * (en.emojilib, en.openmoji-tags, zh.rime.dev; default device engine),
 * for one word and for two or more: 0.902 and 1 (bench/client/session-rule.mjs
 * reproduces them; docs/benchmarks-history.md "Issue 24").
 */
export const DEFAULT_SESSION_CALIBRATION = /* @__PURE__ */ Object.freeze({ oneWord: 0.902, words: 1 })

/**
 * needsMeaning is the search session's default rule: ask the meaning layer
 * when the dictionary's answer is weak for what was typed, that is when its
 * confidence is under the calibration's threshold for one word or for
 * several. A query with no word (an emoticon, emoji) never asks.
 */
export function needsMeaning(alias, calibration = DEFAULT_SESSION_CALIBRATION) {
  const n = alias?.tokens?.length || 0
  if (n <= 0) return false
  const c = Number.isNaN(alias.confidence) ? 0 : alias.confidence ?? 0
  return c < (n === 1 ? calibration.oneWord : calibration.words)
}

const hitsOf = (semantic) => (Array.isArray(semantic) ? semantic : semantic?.results || [])
const cosineOf = (h) => h.cosine ?? h.score

/** semanticConfidence maps the best cosine from calibration.floor..ceiling to 0..1. */
export function semanticConfidence(semantic, calibration) {
  const c = cal(calibration)
  let best = -Infinity
  for (const h of hitsOf(semantic)) { const x = cosineOf(h); if (!Number.isNaN(x) && x > best) best = x }
  if (best === -Infinity) return 0
  if (c.ceiling <= c.floor) return best >= c.ceiling ? 1 : 0
  return clamp01((best - c.floor) / (c.ceiling - c.floor))
}

const keyOf = (id, emoji) => (id ? baseId(id) : emoji ? baseId(hexcodeOf(emoji)) : '')

function entries(alias, semantic, o) {
  const byKey = new Map()
  const es = []
  let rank = 0
  for (const r of alias) {
    const k = keyOf(r.id, r.emoji)
    if (!k || (o.aliasFloor > 0 && !(r.score >= o.aliasFloor)) || byKey.has(k)) continue
    const e = { item: { ...r, score: clamp01(r.score), source: r.source || 'alias' }, alias: true, pinned: r.score >= o.pinScore || r.source === 'custom', rank: 0, cosine: 0, ord: es.length }
    if (!e.pinned) e.rank = o.aliasWeight / (o.k + rank + 1)
    rank++
    byKey.set(k, es.length)
    es.push(e)
  }
  const seen = new Set()
  rank = 0
  for (const h of semantic) {
    const k = keyOf(h.id, h.emoji)
    if (!k || seen.has(k)) continue
    seen.add(k)
    const c = o.semanticWeight / (o.k + rank + 1)
    rank++
    const i = byKey.get(k)
    if (i !== undefined) {
      if (!es[i].pinned) es[i].rank += c
      continue
    }
    const cos = cosineOf(h)
    byKey.set(k, es.length)
    es.push({ item: { emoji: h.emoji || emojiOfHex(h.id), id: h.id, score: clamp01(cos), source: 'semantic' }, alias: false, pinned: false, rank: c, cosine: cos, ord: es.length })
  }
  // Pinned first (custom emoji, as the search API places them, then sure dictionary results), in their order.
  const custom = (e) => e.item.source === 'custom'
  es.sort((a, b) => (a.pinned !== b.pinned ? (a.pinned ? -1 : 1) : a.pinned ? custom(b) - custom(a) || a.ord - b.ord : b.rank - a.rank || a.ord - b.ord))
  return es
}

function opts(o = {}) {
  return { k: positiveOr(o.k, 60), pinScore: positiveOr(o.pinScore, 0.9), aliasWeight: positiveOr(o.aliasWeight, 1), semanticWeight: positiveOr(o.semanticWeight, 1), aliasFloor: Number.isNaN(o.aliasFloor) ? 0 : o.aliasFloor || 0 }
}

/** fuseResults is reciprocal-rank fusion (k 60) with pinned dictionary results on top. */
export function fuseResults(alias, semantic, options) {
  return entries(alias?.results || alias || [], hitsOf(semantic), opts(options)).map((e) => e.item)
}

function isFlag(emoji, id) {
  let rs = Array.from(emoji || '', (c) => c.codePointAt(0))
  if (!rs.length) rs = Array.from(emojiOfHex(id || ''), (c) => c.codePointAt(0))
  const reg = (r) => r >= 0x1f1e6 && r <= 0x1f1ff
  if (rs.length === 2) return reg(rs[0]) && reg(rs[1])
  return rs.length >= 3 && rs[0] === 0x1f3f4 && rs[rs.length - 1] === 0xe007f && rs.slice(1, -1).every((r) => r >= 0xe0020 && r <= 0xe007e)
}

/**
 * fuse merges a dictionary output ({results, confidence}) with meaning hits
 * (`{id, emoji, cosine}` or a semantic response): pins first, then the
 * confident dictionary's top block, then fused order, semantic flags last.
 */
export function fuse(alias, semantic, limit = 24, calibration) {
  if (!(limit > 0)) limit = 24
  const c = cal(calibration)
  const conf = clamp01(alias?.confidence ?? 0)
  const sem = hitsOf(semantic)
  const es = entries(alias?.results || [], sem, opts({ aliasWeight: 0.4 + conf, semanticWeight: 0.4 + 0.6 * semanticConfidence(sem, c) }))
  let top = Infinity
  if (conf >= 0.6) {
    top = -Infinity
    for (const e of es) if (e.alias && e.item.score > top) top = e.item.score
  }
  const tier = (e) => (e.pinned ? 0 : e.alias && e.item.score >= top - 0.1 - 1e-9 ? 1 : !e.alias && isFlag(e.item.emoji, e.item.id) && !(e.cosine >= c.ceiling) ? 3 : 2)
  const out = []
  for (let t = 0; t <= 3; t++) for (const e of es) { if (out.length === limit) return out; if (tier(e) === t) out.push(e.item) }
  return out
}
