// The culture layer (spec 3 "Culture layer"; Go: engine/culture). Culture
// files are editorial: seasonal, event, lasting and regional entries that
// join right after the top canonical result and never replace it.
import { normalize, tokenize, MAX_QUERY_LENGTH, unspaced } from './text.js'
import { baseId, hexcodeOf } from './hex.js'
import { LOCALES } from './format.js'

export const CULTURE_FORMAT = 'emojisearch.culture'
export const CULTURE_FORMAT_VERSION = 1
const MAX_INSERTED = 5
const KINDS = ['lasting', 'seasonal', 'event', 'regional']
let regionSet
const REGIONS = () => regionSet || (regionSet = new Set(('AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
  'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ ' +
  'NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
  'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ ' +
  'UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW').split(' ')))

const pad = (n) => String(n).padStart(2, '0')
/** localDay is the device's local day of now (a Date or epoch ms), YYYY-MM-DD. */
export function localDay(now = new Date()) {
  const d = now instanceof Date ? now : new Date(now)
  return `${String(d.getFullYear()).padStart(4, '0')}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

const isDay = (s) => typeof s === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s) && new Date(s + 'T00:00:00Z').toISOString().slice(0, 10) === s

/** isActiveOn reports whether an entry (lasting, regional without windows, or a window holding day) is active on day. */
export function isActiveOn(when, day) {
  const ws = when?.windows || []
  if (!ws.length) return when?.kind === 'lasting' || when?.kind === 'regional'
  return ws.some((w) => w.from <= day && day <= w.to)
}

/** regionOf is the region subtag of a locale tag (upper case), or undefined. */
export function regionOf(tag) {
  const parts = String(tag ?? '').split(/[-_]/).filter(Boolean)
  for (let i = 1; i < parts.length; i++) {
    const p = parts[i]
    if (p.length === 1) return undefined
    if (p.length === 2) return REGIONS().has(p.toUpperCase()) ? p.toUpperCase() : undefined
  }
  return undefined
}

/** deviceRegion is the region of the browser's language tag, or undefined. */
export function deviceRegion() {
  const nav = globalThis.navigator
  return regionOf(nav?.language || (nav?.languages || [])[0] || Intl.DateTimeFormat().resolvedOptions().locale)
}

/** assertCulture throws a TypeError when value is not a valid culture file. */
export function assertCulture(value) {
  const errs = []
  const bad = (m) => errs.push(m)
  if (!value || value.format !== CULTURE_FORMAT || value.formatVersion !== CULTURE_FORMAT_VERSION) {
    throw new TypeError(`emojisearch: not a culture file of format version ${CULTURE_FORMAT_VERSION}`)
  }
  if (!LOCALES.includes(value.locale)) bad(`locale ${value.locale}`)
  if (!value.packVersion) bad('packVersion is empty')
  if (!isDay(value.from) || !isDay(value.to) || value.to < value.from) bad('from/to')
  const ids = new Set()
  for (const [i, e] of (Array.isArray(value.entries) ? value.entries : (bad('entries'), [])).entries()) {
    const n = `entry ${i} ${JSON.stringify(e?.id)}`
    if (!e || typeof e.id !== 'string' || !e.id || /\s/.test(e.id) || ids.has(e.id)) bad(`${n}: id`)
    ids.add(e?.id)
    if (!e?.emoji || looseHex(e.hexcode) !== looseHex(hexcodeOf(e.emoji))) bad(`${n}: emoji/hexcode`)
    if (!KINDS.includes(e?.kind)) bad(`${n}: kind`)
    if (!(e?.weight >= 0 && e.weight <= 1)) bad(`${n}: weight`)
    if (!String(e?.context ?? '').trim()) bad(`${n}: context`)
    const tr = e?.triggers || []
    if (!tr.length || tr.some((t) => !t || normalize(t, MAX_QUERY_LENGTH) !== t) || new Set(tr).size !== tr.length) bad(`${n}: triggers`)
    const ws = e?.windows || [], rs = e?.regions || []
    if (e?.kind === 'lasting' && (ws.length || rs.length)) bad(`${n}: lasting with windows or regions`)
    if ((e?.kind === 'seasonal' || e?.kind === 'event') && (!ws.length || rs.length)) bad(`${n}: windows/regions`)
    if (e?.kind === 'regional' && !rs.length) bad(`${n}: regional without regions`)
    if ((e?.over || []).length && e.kind !== 'regional') bad(`${n}: over`)
    if (rs.some((r) => !REGIONS().has(r))) bad(`${n}: region`)
    if (ws.some((w) => !isDay(w.from) || !isDay(w.to) || w.to < w.from || w.from < value.from || w.to > value.to)) bad(`${n}: window`)
  }
  if (errs.length) throw new TypeError('emojisearch: invalid culture file: ' + errs.slice(0, 10).join('; '))
  return value
}

function looseHex(h) {
  return baseId(String(h ?? '')).split('-').map((p) => p.replace(/^0+/, '')).filter((p) => p && p !== 'FE0F').join('-')
}

/** loadCulture fetches {baseUrl}/v1/culture/<version>/culture.<locale>.json and checks it. */
export async function loadCulture({ baseUrl, locale = 'en', fetch: f = globalThis.fetch, signal } = {}) {
  if (!baseUrl) throw new TypeError('emojisearch: loadCulture needs baseUrl ({base_url}/v1/culture/<version>)')
  const res = await f(`${String(baseUrl).replace(/\/+$/, '')}/culture.${locale}.json`, { signal })
  if (!res.ok) throw new Error(`emojisearch: culture ${locale}: HTTP ${res.status}`)
  return assertCulture(await res.json())
}

function matches(q, t) {
  if (!q || !t) return 0
  if (q === t) return 2
  if (!q.includes(t)) return 0
  if ([...t].some((c) => unspaced(c.codePointAt(0)))) return [...t].length >= 2 ? 1 : 0
  const qt = tokenize(q), tt = tokenize(t)
  for (let i = 0; i + tt.length <= qt.length; i++) if (tt.every((x, j) => qt[i + j] === x)) return 1
  return 0
}

const inScope = (e, region) => !!region && (e.regions || []).includes(String(region).toUpperCase())
const eligible = (e, day, region) => (e.kind !== 'regional' || inScope(e, region)) && isActiveOn(e, day)
const resultOf = (e, trigger) => ({ emoji: e.emoji, id: e.hexcode, score: e.weight, source: 'culture', match: trigger, field: 'culture', context: e.context, cultureId: e.id })
const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0)
const dayOf = (o) => o?.day || localDay(o?.now === undefined ? new Date() : new Date(o.now))

/** matchCulture lists the culture results of a query, best weight first, one per emoji. */
export function matchCulture(culture, query, options = {}) {
  if (!culture) return []
  const day = dayOf(options)
  const q = normalize(query, MAX_QUERY_LENGTH)
  const hits = []
  for (const e of culture.entries) {
    if (!eligible(e, day, options.region)) continue
    let best = 0, trig = ''
    for (const t of e.triggers) { const m = matches(q, t); if (m > best) best = m, trig = t }
    if (best > 0) hits.push({ r: resultOf(e, trig), x: best })
  }
  hits.sort((a, b) => b.r.score - a.r.score || b.x - a.x || cmp(a.r.cultureId, b.r.cultureId))
  const seen = new Set()
  return hits.filter((h) => !seen.has(baseId(h.r.id)) && seen.add(baseId(h.r.id))).map((h) => h.r)
}

/** matchRegionalLead returns the regional entry that leads above topId for query, or undefined. */
export function matchRegionalLead(culture, query, topId, options = {}) {
  const region = options.region
  if (!culture || !region || !topId) return undefined
  const day = dayOf(options)
  const q = normalize(query, MAX_QUERY_LENGTH)
  let best
  for (const e of culture.entries) {
    if (e.kind !== 'regional' || !eligible(e, day, region) || !e.triggers.includes(q)) continue
    if (!(e.over || []).some((id) => baseId(id) === baseId(topId))) continue
    if (!best || e.weight > best.weight) best = e
  }
  return !best || baseId(best.hexcode) === baseId(topId) ? undefined : resultOf(best, q)
}

function place(results, lead, cultureResults, limit) {
  const custom = results.filter((r) => r.source === 'custom')
  const canon = results.filter((r) => r.source !== 'custom')
  const out = [...custom]
  const used = new Set()
  let n = 0
  if (lead) out.push(lead), used.add(baseId(lead.id)), n++
  if (canon.length && !used.has(baseId(canon[0].id))) out.push(canon[0]), used.add(baseId(canon[0].id))
  for (const r of cultureResults || []) {
    if (n >= MAX_INSERTED) break
    const id = baseId(r.id)
    if (used.has(id)) continue
    used.add(id)
    out.push(r)
    n++
  }
  for (const r of canon) if (!used.has(baseId(r.id))) out.push(r)
  return limit > 0 && out.length > limit ? out.slice(0, limit) : out
}

/** insertCulture puts culture results right after the top canonical result (at most 5). */
export const insertCulture = (results, cultureResults, limit = 0) => place(results, undefined, cultureResults, limit)

/** applyCulture applies a culture file to a result list: regional lead, then culture results after the top answer. */
export function applyCulture(culture, query, results, options = {}) {
  if (!culture) return place(results, undefined, [], options.limit)
  const top = results.find((r) => r.source !== 'custom')
  const lead = matchRegionalLead(culture, query, top?.id, options)
  return place(results, lead, matchCulture(culture, query, options), options.limit)
}

/** relevantNow lists featured seasonal and event emoji active today (regional too with region). */
export function relevantNow(culture, options = {}) {
  if (!culture) return []
  const day = dayOf(options)
  const es = culture.entries.filter((e) => (e.windows || []).length && eligible(e, day, options.region))
  es.sort((a, b) => b.weight - a.weight || cmp(a.id, b.id))
  const out = []
  const seen = new Set()
  for (const e of es) {
    if (options.limit > 0 && out.length >= options.limit) break
    const id = baseId(e.hexcode)
    if (seen.has(id)) continue
    seen.add(id)
    out.push({ emoji: e.emoji, hexcode: e.hexcode, context: e.context, cultureId: e.id })
  }
  return out
}
