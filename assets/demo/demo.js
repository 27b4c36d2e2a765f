// The page at /: <emoji-search-picker> from the client package the Worker
// serves under /client/, a panel with the last emoji-click payload and a
// snippet to copy, and the developer options in a settings drawer. Query
// parameters (locale, set, theme, region, key) preset the options, for
// links and the browser tests. No framework.
import { PICKER_LOCALES, localeOf } from '/client/picker.js'
import { EMOJI_SETS, deviceRegion } from '/client/index.js'

const $ = (id) => document.getElementById(id)
const picker = $('picker')
const origin = location.origin
const params = new URLSearchParams(location.search)
window.demo = { picker, clicks: [] } // for the browser test

for (const l of PICKER_LOCALES) $('locale').append(new Option(`${new Intl.DisplayNames([l], { type: 'language' }).of(l)} (${l})`, l))
for (const s of EMOJI_SETS) $('set').append(new Option(s, s))
$('locale').value = localeOf(params.get('locale') || navigator.language)
$('set').value = EMOJI_SETS.includes(params.get('set')) ? params.get('set') : 'native'
$('theme').value = ['light', 'dark'].includes(params.get('theme')) ? params.get('theme') : ''
$('region').value = params.get('region') ?? deviceRegion() ?? ''
$('key').value = params.get('key') || ''

const attr = (name, value) => (value ? picker.setAttribute(name, value) : picker.removeAttribute(name))

function apply() {
  const locale = $('locale').value
  const key = $('key').value.trim()
  const region = $('region').value.trim().toUpperCase()
  attr('endpoint', origin)
  attr('locale', locale)
  attr('set', $('set').value === 'native' ? '' : $('set').value)
  attr('theme', $('theme').value)
  attr('region', region)
  attr('key', key)
  document.documentElement.dataset.theme = $('theme').value
  const opts = [`endpoint="${origin}"`, `locale="${locale}"`]
  if ($('set').value !== 'native') opts.push(`set="${$('set').value}"`)
  if (key) opts.push(`key="${key}"`)
  $('snippet').textContent = `<script type="module" src="${origin}/client/picker.js"></script>
<emoji-search-picker ${opts.join(' ')}></emoji-search-picker>
<script>
  document.querySelector('emoji-search-picker')
    .addEventListener('emoji-click', (e) => console.log(e.detail.unicode))
</script>`
}

picker.addEventListener('emoji-click', (ev) => {
  const d = ev.detail
  window.demo.clicks.push(d)
  const g = document.createElement('span')
  g.className = 'g'
  g.textContent = d.unicode
  $('picked').replaceChildren(g, d.label)
  $('detail').textContent = JSON.stringify({ ...d, emoji: { id: d.emoji.id, group: d.emoji.group, version: d.emoji.version, hasSkinTones: d.emoji.hasSkinTones } }, null, 2)
})
picker.addEventListener('emoji-search-ready', () => { $('version').textContent = picker.engine.packVersion })
$('copy').addEventListener('click', () => navigator.clipboard?.writeText($('snippet').textContent).catch(() => {}))
$('controls').addEventListener('change', apply)
apply()
