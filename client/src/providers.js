// Meaning-tier providers (spec 3 "Semantic providers"). A provider's
// search(query, {locale, limit, signal}) resolves to a response
// ({results, packVersion?, cached?, overLimit?, layer}) or undefined, which
// passes the query to the next provider.
import { normalize, embeddingText, MAX_QUERY_LENGTH } from './text.js'
import { language } from './hex.js'

const trim = (u) => String(u).replace(/\/+$/, '')
const abortError = () => new DOMException('The operation was aborted.', 'AbortError')

/**
 * createSemanticClient calls GET {endpoint}/v1/search?mode=semantic. It keeps
 * the last cacheSize answers in memory, skips the API for overLimitCooldownMs
 * after an over-limit answer and pins packVersion when given.
 */
export function createSemanticClient(options = {}) {
  const { endpoint, key, packVersion, cacheSize = 200, overLimitCooldownMs = 0 } = options
  if (!endpoint) throw new TypeError('emojisearch: createSemanticClient needs endpoint')
  const fetchFn = options.fetch || ((...a) => globalThis.fetch(...a))
  const cache = new Map()
  let coolUntil = 0
  return {
    async search(query, opts = {}) {
      const q = embeddingText(query)
      if (!normalize(q, MAX_QUERY_LENGTH)) return undefined
      if (Date.now() < coolUntil) return undefined
      const locale = language(opts.locale) || 'en'
      const limit = Math.min(Math.max(opts.limit | 0 || 24, 1), 50)
      const ck = `${locale}\u0000${limit}\u0000${q}`
      const hit = cache.get(ck)
      if (hit) {
        cache.delete(ck), cache.set(ck, hit) // most recent last
        return { ...hit, cached: true, layer: 'api' }
      }
      const u = new URL(trim(endpoint) + '/v1/search')
      u.searchParams.set('q', q)
      u.searchParams.set('mode', 'semantic')
      u.searchParams.set('locale', locale)
      u.searchParams.set('limit', String(limit))
      if (key) u.searchParams.set('key', key)
      if (packVersion) u.searchParams.set('pack', packVersion)
      const res = await fetchFn(u.toString(), { signal: opts.signal, headers: { accept: 'application/json' } })
      if (!res.ok) throw new Error(`emojisearch: search API answered ${res.status}`)
      const body = await res.json()
      if (body.overLimit) {
        if (overLimitCooldownMs > 0) coolUntil = Date.now() + overLimitCooldownMs
        if (!body.cached) return undefined // no meaning results: let the next provider (or the dictionary) answer
      }
      if (packVersion && body.packVersion && body.packVersion !== packVersion) return undefined // other data than the loaded packs
      if (body.degraded) return undefined
      const out = { results: body.results || [], packVersion: body.packVersion, model: body.model, cached: !!body.cached, layer: 'api' }
      if (cacheSize > 0) {
        cache.set(ck, out)
        while (cache.size > cacheSize) cache.delete(cache.keys().next().value)
      }
      return out
    },
  }
}

/** FNV-1a 32 of a string's UTF-8 bytes, as 8 lowercase hex digits. */
function fnv(s) {
  let h = 0x811c9dc5
  for (const b of new TextEncoder().encode(s)) h = Math.imul(h ^ b, 0x01000193)
  return (h >>> 0).toString(16).padStart(8, '0')
}

/**
 * shardKeyFor picks the shard file of a query (packs/FORMAT.md, "Result
 * shards", the service's shards.KeyFor): the locale's key alone, or the
 * locale, "-" and the first 1..8 hex digits of FNV-1a 32 of the normalized
 * query, whichever is listed in keys (a locale's keys are prefix-free);
 * undefined when none is.
 */
export function shardKeyFor(keys, query, locale = 'en') {
  const set = new Set(keys || [])
  const loc = language(locale) || 'en'
  const h = fnv(normalize(query, MAX_QUERY_LENGTH))
  for (let n = 0; n <= 8; n++) {
    const k = n === 0 ? loc : `${loc}-${h.slice(0, n)}`
    if (set.has(k)) return k
  }
  return undefined
}

/**
 * createShardProvider answers from the nightly precomputed results under
 * {baseUrl}/p/<version> (index.json lists `keys`; <key>.json maps each
 * normalized query to its results under `results`). undefined when a query
 * is not published or no shard is built yet (404).
 */
export function createShardProvider(options = {}) {
  const { baseUrl } = options
  if (!baseUrl) throw new TypeError('emojisearch: createShardProvider needs baseUrl ({base_url}/p/<version>)')
  const fetchFn = options.fetch || ((...a) => globalThis.fetch(...a))
  let index
  const files = new Map()
  const get = async (name, signal) => {
    const res = await fetchFn(`${trim(baseUrl)}/${name}`, { signal })
    if (res.status === 404) return null
    if (!res.ok) throw new Error(`emojisearch: shard ${name}: HTTP ${res.status}`)
    return res.json()
  }
  return {
    async search(query, opts = {}) {
      const q = normalize(query, MAX_QUERY_LENGTH)
      if (!q) return undefined
      if (index === undefined) index = get('index.json', opts.signal).catch((e) => { index = undefined; throw e })
      const ix = await index
      const k = ix && shardKeyFor(ix.keys, q, opts.locale)
      if (!k) return undefined
      if (!files.has(k)) files.set(k, get(`${k}.json`, opts.signal).catch((e) => { files.delete(k); throw e }))
      const file = await files.get(k)
      const results = file?.results?.[q]
      if (!results) return undefined
      return { results: opts.limit > 0 ? results.slice(0, opts.limit) : results, packVersion: ix.packVersion, model: ix.model, cached: true, layer: 'shard' }
    },
  }
}

/** chainProviders asks providers in order; the first answer wins. */
export function chainProviders(...providers) {
  const list = providers.flat().filter(Boolean)
  return {
    async search(query, opts = {}) {
      for (const p of list) {
        if (opts.signal?.aborted) throw abortError()
        let r
        try {
          r = await p.search(query, opts)
        } catch (e) {
          if (e?.name === 'AbortError') throw e
          continue // a failing layer passes the query on
        }
        if (r) return r
      }
      return undefined
    },
  }
}

/** createLayeredSemantic: shards, then the API, cheapest first; undefined when neither is configured. */
export function createLayeredSemantic(options = {}) {
  const { shardsUrl, endpoint, key, packVersion } = options
  const layers = []
  if (shardsUrl) layers.push(createShardProvider({ baseUrl: shardsUrl, fetch: options.fetch }))
  if (endpoint) layers.push(createSemanticClient({ endpoint, key, packVersion, fetch: options.fetch, cacheSize: options.cacheSize, overLimitCooldownMs: options.overLimitCooldownMs }))
  return layers.length ? chainProviders(...layers) : undefined
}
