// The pack format (packs/FORMAT.md): constants and checks shared with the Go
// build (engine/packfmt).

export const PACK_FORMAT = 'emojisearch.pack'
/** Pack format 2 added the editorial fields; format 1 packs (rows without them) are read too. */
export const PACK_FORMAT_VERSION = 2
export const FIELDS = /* @__PURE__ */ Object.freeze(['name', 'shortcode', 'keyword', 'alias', 'low', 'editorial', 'editorial_more', 'typo'])
export const DEFAULT_WEIGHTS = /* @__PURE__ */ Object.freeze({ name: 1, shortcode: 0.97, keyword: 0.85, alias: 0.7, low: 0.3, editorial: 0.9, editorial_more: 0.8, typo: 0.55, english: 0.92 })
export const ROW_INDEX = /* @__PURE__ */ Object.freeze({ id: 0, emoji: 1, group: 2, subgroup: 3, version: 4, skins: 5, prior: 6, family: 7, label: 8, name: 9, shortcode: 10, keyword: 11, alias: 12, low: 13, editorial: 14, editorial_more: 15 })
/** Row ids of a custom pack (part `custom`) start with this. */
export const CUSTOM_ID_PREFIX = 'C-'
export const LOCALES = /* @__PURE__ */ Object.freeze(['en', 'zh', 'hi', 'es', 'ar', 'fr', 'bn', 'pt', 'ru', 'id', 'tr'])

/** assertPack throws a TypeError when value is not a pack of this format version; it returns the pack. */
export function assertPack(value) {
  const v = value || {}
  const x = v.rowIndex || {}
  const seen = new Set()
  const str = (s) => typeof s === 'string' && s !== '' // a non-empty string
  const text = FIELDS.slice(0, 7).map((f) => x[f]) // the stored fields' columns: strings or absent
  const badRow = (r) => {
    const id = Array.isArray(r) && r[x.id]
    if (!(str(id) && !seen.has(id) && seen.add(id) &&
      (v.part === 'ext' || (r[x.emoji] && r[x.label])) && (v.part !== 'custom' || (id.startsWith(CUSTOM_ID_PREFIX) && str(r[x.imageUrl]))))) return true
    for (let i = 0; i < text.length; i++) if (r[text[i]] != null && typeof r[text[i]] !== 'string') return true
    return false
  }
  let i = -1
  const why =
    v.format !== PACK_FORMAT ? 'format' :
    !v.rowIndex ? 'rowIndex' :
    v.formatVersion !== PACK_FORMAT_VERSION && v.formatVersion !== 1 ? 'formatVersion' :
    !str(v.packVersion) ? 'packVersion' :
    !str(v.locale) ? 'locale' :
    !['core', 'ext', 'custom'].includes(v.part) ? 'part' :
    v.part === 'custom' && !Number.isInteger(x.imageUrl) ? 'rowIndex.imageUrl' : // the custom pack's image column
    !Array.isArray(v.rows) ? 'rows' :
    (i = v.rows.findIndex(badRow)) >= 0 ? 'row ' + i : ''
  if (why) throw new TypeError('emojisearch: not a usable pack: ' + why)
  return value
}

/**
 * isCustomPack reports a custom pack as GET /v1/custom-pack serves it
 * (loadCustomPack): part `custom`, rows, and a rowIndex that names the
 * image column `imageUrl` (the core columns plus one).
 */
export const isCustomPack = (value) =>
  !!value && value.format === PACK_FORMAT && value.part === 'custom' && Array.isArray(value.rows) && Number.isInteger(value.rowIndex?.imageUrl)
