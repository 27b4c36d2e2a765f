// The grid's catalog, read straight from the packs (packs/FORMAT.md: the
// English core pack's rows in emoji order, the locale's core pack for its
// names and group names), so the first grid paints before createEngine
// has indexed the locale (about 130 ms for Spanish's JSON pack in
// Chromium). Entries have the shape of the engine's EmojiEntry.
export function catalog(packs, loc) {
  const core = (l) => packs.find((p) => p.locale === l && p.part === 'core' && p.rows?.length)
  const en = core('en')
  if (!en) throw new TypeError('emojisearch: no English core pack')
  const lp = core(loc)
  const names = new Map()
  if (lp && lp !== en) for (const r of lp.rows) names.set(r[lp.rowIndex.id], r[lp.rowIndex.label])
  const x = en.rowIndex
  const codes = new Map()
  const entries = en.rows.map((r) => {
    const id = r[x.id]
    const labels = { en: r[x.label] }
    if (names.get(id)) labels[loc] = names.get(id)
    codes.set(id, String(r[x.shortcode] || '').split('|')[0])
    return { emoji: r[x.emoji], id, group: Math.max(r[x.group] | 0, 0), version: +r[x.version] || 0, hasSkinTones: r[x.skins] === 1, labels }
  })
  // named: false when the locale came without rows (a binary index only, or
  // not loaded): the element then takes the names from the engine.
  return { entries, byId: new Map(entries.map((e) => [e.id, e])), codes, groups: lp?.groups || en.groups || [], named: !!lp || loc === 'en' }
}
