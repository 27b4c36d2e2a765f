// Loading packs over HTTP (spec 3 "Engine and loading").
import { assertPack, isCustomPack } from './format.js'
import { devicePack, checkIndexPack } from './binary.js'
import { packLocale } from './locale.js'

const trim = (u) => String(u).replace(/\/+$/, '')
async function getJSON(fetchFn, url, signal) {
  const res = await fetchFn(url, { signal })
  if (!res.ok) throw new Error(`emojisearch: ${url}: HTTP ${res.status}`)
  return res.json()
}

/**
 * loadPacks fetches what createEngine needs for English and options.locales
 * (BCP 47 tags as search takes them: "pt-BR" loads pt; an unsupported one
 * throws a RangeError before anything is fetched) from {baseUrl}, which is
 * {endpoint}/v1/pack/<packVersion> (packVersion from GET /v1/health). The
 * browser's HTTP cache serves the files again (immutable per version).
 *
 * By default (part `core`): the English core pack (entries and the ranking
 * word lists) and each locale's device index (device.<locale>.bin,
 * packs/FORMAT.md "Device index": the locale's core, extension and editorial
 * phrases and the emoticons, as the search API's dictionary tier has them
 * but the related words), so createEngine answers as the service does and
 * reads the indexes in place. A device index that is missing, damaged or
 * of another pack version is replaced by the locale's core JSON pack (fewer
 * phrases, slower to index). `index: false` loads the core JSON packs only
 * (the smallest download, weaker answers). Part `ext` loads the core and
 * extension JSON packs (with the English related words: the whole
 * dictionary tier; much larger and slower to index), and the associations.
 *
 * Part `assoc` loads only the associations of English and the locales
 * (packs/FORMAT.md "Associations": what people type for an emoji beyond its
 * dictionary names): each locale's device.<locale>.assoc.bin, read in
 * place, else its pack.<locale>.assoc.json; a locale with neither is
 * skipped. createEngine refuses a part index of another pack version. They are the phrases the service's dictionary tier has beyond
 * the device indexes: given to createEngine with the default packs, they
 * are searched beside the device indexes, so the engine answers as the
 * service's dictionary tier. Load them after the first results (the picker
 * does): they are about half as large again as the default download.
 */
export async function loadPacks(options = {}) {
  const { baseUrl, part = 'core', signal } = options
  if (!baseUrl) throw new TypeError('emojisearch: loadPacks needs baseUrl ({endpoint}/v1/pack/<packVersion>)')
  if (part !== 'core' && part !== 'ext' && part !== 'assoc') throw new TypeError('emojisearch: part must be core, ext or assoc')
  const fetchFn = options.fetch || ((...a) => globalThis.fetch(...a))
  const locales = [...new Set(['en', ...(options.locales || []).map(packLocale)])]
  const base = trim(baseUrl)
  const json = (name) => getJSON(fetchFn, `${base}/${name}`, signal).then(assertPack)
  // The associations are optional: a locale without them (404) or with a
  // damaged file is skipped.
  const assocJSON = (l) => getBytes(fetchFn, `${base}/pack.${l}.assoc.json`, signal).then((b) => {
    try {
      return b && assertPack(JSON.parse(new TextDecoder().decode(b)))
    } catch {}
  })
  if (part === 'assoc') {
    // A part index is checked here for its layout, locale and part; its
    // entry table by createEngine, against the English core pack the
    // caller already holds (fetching that pack again would cost as much as
    // the part).
    return (await Promise.all(locales.map(async (l) => {
      const bytes = await getBytes(fetchFn, `${base}/device.${l}.assoc.bin`, signal)
      try {
        const p = bytes && devicePack(bytes)
        if (p?.sub && p.locale === l) return p
      } catch {}
      return assocJSON(l)
    }))).filter(Boolean)
  }
  if (part === 'ext') {
    const all = await Promise.all([...locales.flatMap((l) => [json(`pack.${l}.json`), json(`pack.${l}.ext.json`)]), ...locales.map(assocJSON)])
    return all.filter(Boolean)
  }
  if (options.index === false) return Promise.all(locales.map((l) => json(`pack.${l}.json`)))
  const devices = locales.map((l) => getBytes(fetchFn, `${base}/device.${l}.bin`, signal))
  const en = await json('pack.en.json')
  const out = [en]
  for (let i = 0; i < locales.length; i++) {
    const bytes = await devices[i]
    signal?.throwIfAborted()
    let p
    try {
      p = bytes && checkIndexPack(devicePack(bytes), en, locales[i])
    } catch {
      p = undefined
    }
    if (p) out.push(p)
    else if (i > 0) out.push(await json(`pack.${locales[i]}.json`))
  }
  return out
}

// getBytes is a file's bytes, or undefined when it cannot be had (never a
// rejection: the caller goes on without it). A request that fails without
// an answer (a reused connection the server had just closed) is sent once
// more before giving up.
async function getBytes(fetchFn, url, signal, again = true) {
  try {
    const res = await fetchFn(url, { signal })
    return res.ok ? new Uint8Array(await res.arrayBuffer()) : undefined
  } catch {
    return again && !signal?.aborted ? getBytes(fetchFn, url, signal, false) : undefined
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
