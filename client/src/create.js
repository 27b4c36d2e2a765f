// createEngine as the package root exports it: the search core (engine.js)
// with the culture layer (culture.js), so engine.search applies a culture
// file given to createEngine or withCulture. client/core.js exports the
// core alone (no culture layer) for the smallest bundle.
import { createEngine as core, AliasEngine } from './engine.js'
import { applyCulture, localDay } from './culture.js'
import { language } from './hex.js'
import { BinIndex, indexPack, isBinaryIndex, devicePack, isDeviceIndex } from './binary.js'

// The shortest queries are the dearest and the most repeated while typing
// (every search starts with one or two characters, and one letter completes
// into thousands of phrases). An index never changes once built, so the
// root engine keeps the answers to queries of at most two characters, per
// options, bounded (emptied at 4,096) and handed out as copies: the Go
// engine's shortcache.go, outside the search core to keep the core small.
const SHORT = 2
const SHORT_MAX = 4096

class Engine extends AliasEngine {
  _search(query, options) {
    const q = String(query ?? '')
    if (q.length > 2 * SHORT || [...q].length > SHORT) return super.search(q, options)
    const k = [q, options.locale, options.limit, options.prefix !== false].join('\0')
    const m = this._short || (this._short = new Map())
    let o = m.get(k)
    if (!o) {
      if (m.size >= SHORT_MAX) m.clear()
      m.set(k, (o = super.search(q, options)))
    }
    return { ...o, tokens: [...o.tokens], results: o.results.map((r) => ({ ...r })) }
  }

  search(query, options = {}) {
    const out = this._search(query, options)
    const c = options.culture
    const culture = c === false ? undefined : c && typeof c === 'object' ? c : this.culture
    if (culture) {
      out.results = applyCulture(culture, String(query ?? ''), out.results, {
        day: options.day || localDay(options.now ?? new Date()), region: options.region, limit: options.limit > 0 ? Math.floor(options.limit) : 24,
      })
    }
    return out
  }

  /** locales are the languages the engine searches, once each (a locale's associations are a segment of their own). */
  get locales() { return [...new Set(super.locales)] }

  /** groupLabel names a group (0..9) in a locale's pack, else English; '' when unknown (the groupLabel helper). */
  groupLabel(group, locale) {
    for (const l of [language(locale), 'en']) for (const s of this._ix.segs) if (s.locale === l && s.grp[group]) return s.grp[group]
    return ''
  }
}

/**
 * createEngine builds an AliasEngine from a pack or packs (English core
 * required); options minCoverage and culture. A locale may be given as its
 * binary index (index.<locale>.bin) or device index (device.<locale>.bin),
 * as an ArrayBuffer or Uint8Array, read in place (binary.js) instead of
 * indexing its JSON packs.
 */
export const createEngine = (input, options) =>
  core((Array.isArray(input) ? input : [input]).map((p) => (isBinaryIndex(p) ? indexPack(p) : isDeviceIndex(p) ? devicePack(p) : p)), options, Engine, BinIndex)
