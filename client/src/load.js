// Loading packs over HTTP (spec 3 "Engine and loading").
import { assertPack, isCustomPack } from './format.js'

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
 * loadCustomPack fetches the app's custom emoji as a pack, exactly as the
 * service serves it (GET {endpoint}/v1/custom-pack?key=…[&tenant=…],
 * packs/FORMAT.md "The custom pack", service/customhost): part `custom`,
 * row ids `C-<emoji id>` (the ids search results carry), the image address
 * in the column rowIndex names `imageUrl`, the app-wide emoji plus the
 * tenant's. The answer names the tenant it was built for; one for another
 * tenant (a shared cache keyed without it) is refused rather than showing
 * one tenant's emoji to another. A development key gets an empty pack.
 */
export async function loadCustomPack(options = {}) {
  const { endpoint, key, tenant, signal } = options
  if (!endpoint || !key) throw new TypeError('emojisearch: loadCustomPack needs endpoint and key')
  const fetchFn = options.fetch || ((...a) => globalThis.fetch(...a))
  const u = new URL(trim(endpoint) + '/v1/custom-pack')
  u.searchParams.set('key', key)
  if (tenant) u.searchParams.set('tenant', tenant)
  const body = await getJSON(fetchFn, u.toString(), signal)
  if (!isCustomPack(body)) throw new TypeError('emojisearch: not a custom pack: ' + u.pathname)
  if ((body.tenant ?? '') !== (tenant || '')) throw new TypeError(`emojisearch: custom pack of tenant ${body.tenant} for ${tenant || 'no tenant'}`)
  return assertPack(body)
}
