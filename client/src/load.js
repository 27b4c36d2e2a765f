// Loading packs over HTTP (spec 3 "Engine and loading").
import { assertPack, isCustomPack } from './format.js'
import { coreIndexPack } from './binary.js'

const trim = (u) => String(u).replace(/\/+$/, '')
async function getJSON(fetchFn, url, signal) {
  const res = await fetchFn(url, { signal })
  if (!res.ok) throw new Error(`emojisearch: ${url}: HTTP ${res.status}`)
  return res.json()
}

/**
 * loadPacks fetches {baseUrl}/pack.<locale>.json (and .ext.json with part
 * `ext`) for each locale, English always first; the browser's HTTP cache
 * serves them again (they are immutable per version). With part `core` it
 * also fetches the English core pack's binary index (index.en.core.bin,
 * packs/FORMAT.md "Core index") unless options.index is false, and returns
 * it right after pack.en.json as a pack with no rows: createEngine then
 * reads the English phrases in place instead of indexing them (the first
 * engine of a page in well under 30 ms instead of about 170 ms). When the
 * index is missing, fails to load or is not that pack's (another version,
 * damaged), the packs come without it and createEngine indexes the JSON:
 * the same answers, only slower to build. The bare core (client/core.js)
 * ignores the index pack.
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
  // The index holds the core pack's phrases only: with part ext it would
  // hide the extension phrases of English, so it is not fetched.
  const index = part === 'core' && options.index !== false ? getBytes(fetchFn, `${trim(baseUrl)}/index.en.core.bin`, signal) : undefined
  const packs = (await Promise.all(names.map((n) => getJSON(fetchFn, `${trim(baseUrl)}/${n}`, signal)))).map(assertPack)
  const bytes = await index
  signal?.throwIfAborted()
  if (!bytes) return packs
  try {
    return [packs[0], coreIndexPack(bytes, packs[0]), ...packs.slice(1)]
  } catch {
    return packs
  }
}

// getBytes is a file's bytes, or undefined when it cannot be had (never a
// rejection: the caller goes on without it).
async function getBytes(fetchFn, url, signal) {
  try {
    const res = await fetchFn(url, { signal })
    return res.ok ? new Uint8Array(await res.arrayBuffer()) : undefined
  } catch {
    return undefined
  }
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
