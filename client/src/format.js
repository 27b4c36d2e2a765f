// The pack format (packs/FORMAT.md): constants and checks shared with the Go
// build (packs/packfmt).

export const PACK_FORMAT = 'emojisearch.pack'
export const PACK_FORMAT_VERSION = 1
export const FIELDS = Object.freeze(['name', 'shortcode', 'keyword', 'alias', 'low', 'typo'])
export const DEFAULT_WEIGHTS = Object.freeze({ name: 1, shortcode: 0.97, keyword: 0.85, alias: 0.7, low: 0.3, typo: 0.55, english: 0.92 })
export const ROW_INDEX = Object.freeze({ id: 0, emoji: 1, group: 2, subgroup: 3, version: 4, skins: 5, prior: 6, family: 7, label: 8, name: 9, shortcode: 10, keyword: 11, alias: 12, low: 13 })
/** Row ids of a custom pack (part `custom`) start with this. */
export const CUSTOM_ID_PREFIX = 'C-'
export const LOCALES = Object.freeze(['en', 'zh', 'hi', 'es', 'ar', 'fr', 'bn', 'pt', 'ru', 'id', 'tr'])

/** assertPack throws a TypeError when value is not a pack of this format version. */
export function assertPack(value) {
  const bad = (why) => { throw new TypeError('emojisearch: not a usable pack: ' + why) }
  if (!value || typeof value !== 'object') bad('not an object')
  if (value.format !== PACK_FORMAT) bad(`format ${JSON.stringify(value.format)}`)
  if (value.formatVersion !== PACK_FORMAT_VERSION) bad(`formatVersion ${value.formatVersion}, this library reads ${PACK_FORMAT_VERSION}`)
  if (!value.packVersion || typeof value.packVersion !== 'string') bad('empty packVersion')
  if (!value.locale || typeof value.locale !== 'string') bad('empty locale')
  if (!['core', 'ext', 'custom'].includes(value.part)) bad(`part ${JSON.stringify(value.part)}`)
  if (!Array.isArray(value.rows)) bad('rows is not an array')
  const ix = value.rowIndex || ROW_INDEX
  const seen = new Set()
  value.rows.forEach((r, i) => {
    if (!Array.isArray(r)) bad(`row ${i} is not an array`)
    const id = r[ix.id]
    if (typeof id !== 'string' || !id || seen.has(id)) bad(`row ${i}: empty or duplicate id`)
    seen.add(id)
    if (value.part !== 'ext' && (!r[ix.emoji] && !r[ix.imageUrl ?? -1] || !r[ix.label])) bad(`row ${i} (${id}): no emoji or label`)
    if (value.part === 'custom' && !id.startsWith(CUSTOM_ID_PREFIX)) bad(`row ${i}: custom id without ${CUSTOM_ID_PREFIX}`)
    for (const f of FIELDS.slice(0, 5)) if (r[ix[f]] != null && typeof r[ix[f]] !== 'string') bad(`row ${i} (${id}): field ${f}`)
  })
  return value
}

/** isCustomPack reports a custom pack (part `custom`, loadCustomPack). */
export const isCustomPack = (value) => !!value && value.format === PACK_FORMAT && value.part === 'custom' && Array.isArray(value.rows)
