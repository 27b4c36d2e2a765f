// Loading packs over HTTP (spec 3 "Engine and loading").
import { assertPack, isCustomPack, PACK_FORMAT, PACK_FORMAT_VERSION, CUSTOM_ID_PREFIX } from './format.js'

const trim = (u) => String(u).replace(/\/+$/, '')
async function getJSON(fetchFn, url, signal) {
  const res = await fetchFn(url, { signal })
  if (!res.ok) throw new Error(`emojisearch: ${url}: HTTP ${res.status}`)
  return res.json()
}

/**
 * loadPacks fetches {baseUrl}/pack.<locale>.json (and .ext.json with part
 * `ext`) for each locale, English always first; the browser's HTTP cache
 * serves them again (they are immutable per version).
 */
export async function loadPacks(options = {}) {
  const { baseUrl, part = 'core', signal } = options
  if (!baseUrl) throw new TypeError('emojisearch: loadPacks needs baseUrl ({base_url}/v1/pack/<version>)')
  if (part !== 'core' && part !== 'ext') throw new TypeError('emojisearch: part must be core or ext')
  const fetchFn = options.fetch || ((...a) => globalThis.fetch(...a))
  const locales = ['en', ...(options.locales || ['en']).filter((l) => l !== 'en')]
  const names = []
  for (const l of new Set(locales)) {
    names.push(`pack.${l}.json`)
    if (part === 'ext') names.push(`pack.${l}.ext.json`)
  }
  const packs = await Promise.all(names.map((n) => getJSON(fetchFn, `${trim(baseUrl)}/${n}`, signal)))
  return packs.map(assertPack)
}

/**
 * loadCustomPack fetches the app's custom emoji as a pack (GET
 * {endpoint}/v1/custom-pack?key=…[&tenant=…]). Row ids start with
 * CUSTOM_ID_PREFIX; results carry imageUrl and shortcode. A service answer
 * listing emoji ({custom: [{id, shortcode, imageUrl, label?, keywords?}]})
 * is turned into a pack.
 */
export async function loadCustomPack(options = {}) {
  const { endpoint, key, tenant, signal } = options
  if (!endpoint || !key) throw new TypeError('emojisearch: loadCustomPack needs endpoint and key')
  const fetchFn = options.fetch || ((...a) => globalThis.fetch(...a))
  const u = new URL(trim(endpoint) + '/v1/custom-pack')
  u.searchParams.set('key', key)
  if (tenant) u.searchParams.set('tenant', tenant)
  const body = await getJSON(fetchFn, u.toString(), signal)
  if (isCustomPack(body)) return assertPack(body)
  const list = body?.custom || body?.emoji || []
  const rows = list.map((e) => {
    const id = String(e.id).startsWith(CUSTOM_ID_PREFIX) ? String(e.id) : CUSTOM_ID_PREFIX + e.id
    const sc = e.shortcode || ''
    return [id, `:${sc}:`, -1, -1, 0, 0, 0, '', e.label || e.name || sc, e.label || e.name || sc.replace(/_/g, ' '), sc, (e.keywords || []).join('|'), '', '', '', '', e.imageUrl || '', sc]
  })
  return assertPack({ format: PACK_FORMAT, formatVersion: PACK_FORMAT_VERSION, packVersion: body?.packVersion || 'custom', locale: 'custom', part: 'custom',
    rowIndex: { id: 0, emoji: 1, group: 2, subgroup: 3, version: 4, skins: 5, prior: 6, family: 7, label: 8, name: 9, shortcode: 10, keyword: 11, alias: 12, low: 13, imageUrl: 16, customShortcode: 17 }, rows })
}
