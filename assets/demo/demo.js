// The demo picker: search-as-you-type over @emojisearch/client, served by
// the Worker's static assets with the library itself (/client/). Packs come
// from /v1/pack/<version>/, meaning results from the layered provider
// (shards under /p/, then /v1/search) of the same origin, culture files
// from /v1/culture/<version>/. No framework.
import {
  createEngine, loadPacks, loadCustomPack, loadCulture, createSearchSession, createLayeredSemantic, relevantNow, deviceRegion,
  applySkinTone, EMOJI_SETS, emojiImageUrl, LOCALES_FOR_DEMO,
} from './lib.js'

const $ = (id) => document.getElementById(id)
const origin = location.origin
const state = { version: '', locale: 'en', tone: 0, set: 'native', custom: undefined, engine: undefined, session: undefined, culture: undefined, ready: false, packs: new Map() }
window.demo = state // for the browser test

for (const l of LOCALES_FOR_DEMO) $('locale').append(new Option(new Intl.DisplayNames([l], { type: 'language' }).of(l) + ` (${l})`, l))
for (const s of EMOJI_SETS) $('set').append(new Option(s, s))
$('region').value = deviceRegion() || ''

async function packsFor(locale) {
  const key = locale
  if (!state.packs.has(key)) state.packs.set(key, loadPacks({ baseUrl: `${origin}/v1/pack/${state.version}`, locales: [locale] }))
  return state.packs.get(key)
}

async function rebuild() {
  state.ready = false
  $('q').disabled = true
  $('status').textContent = `Loading ${state.locale}…`
  const t0 = performance.now()
  const packs = await packsFor(state.locale)
  const culture = $('culture').checked ? await loadCulture({ baseUrl: `${origin}/v1/culture/${state.version}`, locale: state.locale }).catch(() => undefined) : undefined
  const t1 = performance.now()
  state.engine = createEngine(state.custom ? [...packs, state.custom] : packs, { culture })
  state.culture = culture
  state.binary = packs.some((p) => p.bin) // loadPacks got the device indexes: read in place
  const buildMs = performance.now() - t1
  state.session?.dispose()
  state.session = createSearchSession({
    engine: state.engine,
    semantic: createLayeredSemantic({ shardsUrl: `${origin}/p/${state.version}`, endpoint: origin, key: $('key').value.trim() || undefined, packVersion: state.version }),
    locale: state.locale,
    limit: 30,
    region: region(),
    onChange: render,
  })
  state.ready = true
  $('q').disabled = false
  $('status').textContent = `Ready: ${state.engine.entries.length} emoji, ${state.engine.locales.join('+')}, packs ${(t1 - t0).toFixed(0)} ms, index ${buildMs.toFixed(1)} ms${state.binary ? ' (from the device indexes)' : ''}.`
  showNow()
  if ($('q').value) state.session.update($('q').value)
  $('q').focus()
}

const region = () => ($('region').value.trim().toUpperCase() || undefined)

function glyph(r) {
  const span = document.createElement('span')
  span.className = 'e'
  const emoji = r.source === 'custom' ? r.emoji : state.tone && state.engine.get(r.id)?.hasSkinTones ? applySkinTone(r.emoji, state.tone) : r.emoji
  const url = r.imageUrl || emojiImageUrl(emoji, { endpoint: origin, emojiSet: state.set })
  if (url) {
    const img = new Image()
    img.alt = emoji
    img.src = url
    img.onerror = () => img.replaceWith(emoji) // set not served (yet): the device's font
    span.append(img)
  } else span.textContent = emoji
  return [span, emoji]
}

function render(s) {
  state.last = s
  const ul = $('results')
  ul.replaceChildren()
  for (const r of s.results) {
    const li = document.createElement('li')
    const [span, emoji] = glyph(r)
    const label = document.createElement('span')
    label.className = 'l'
    label.textContent = r.source === 'culture' ? r.context : r.label || r.shortcode || state.engine.get(r.id)?.labels[state.locale] || state.engine.get(r.id)?.labels.en || ''
    li.title = `${r.source}${r.match ? ' · ' + r.match : ''} · ${r.score.toFixed(2)}`
    li.className = `src-${r.source}`
    li.dataset.id = r.id
    li.append(span, label)
    li.onclick = () => navigator.clipboard?.writeText(emoji).catch(() => {})
    ul.append(li)
  }
  const parts = [`${s.status}`, `dictionary ${s.aliasMs.toFixed(2)} ms`]
  if (s.semanticMs !== undefined) parts.push(`meaning ${s.semanticMs.toFixed(0)} ms${s.semanticCached ? ' (cached)' : ''}`)
  if (s.layer) parts.push(`layer ${s.layer}`)
  if (s.error) parts.push(`error: ${s.error.message || s.error}`)
  $('status').textContent = s.query ? parts.join(' · ') : ''
  $('status').dataset.status = s.status
}

function showNow() {
  const items = state.culture ? relevantNow(state.culture, { region: region(), limit: 8 }) : []
  $('now-section').hidden = !items.length
  $('now').replaceChildren(...items.map((f) => {
    const li = document.createElement('li')
    li.innerHTML = '<span class="e"></span><span class="l"></span>'
    li.firstChild.textContent = f.emoji
    li.lastChild.textContent = f.context
    return li
  }))
}

$('q').addEventListener('input', () => state.session?.update($('q').value))
$('locale').addEventListener('change', () => { state.locale = $('locale').value; rebuild() })
$('culture').addEventListener('change', rebuild)
$('region').addEventListener('change', rebuild)
$('tone').addEventListener('change', () => { state.tone = +$('tone').value; state.last && render(state.last) })
$('set').addEventListener('change', () => { state.set = $('set').value; state.last && render(state.last) })
$('key').addEventListener('change', async () => {
  const key = $('key').value.trim()
  state.custom = undefined
  if (key) {
    try {
      state.custom = await loadCustomPack({ endpoint: origin, key })
    } catch (e) {
      $('status').textContent = `Custom pack: ${e.message}`
    }
  }
  rebuild()
})

const health = await fetch(`${origin}/v1/health`).then((r) => r.json())
state.version = health.packVersion
$('version').textContent = `${health.packVersion}, model ${health.model}`
await rebuild()
