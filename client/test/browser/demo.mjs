// The browser test of the picker page at /: Debian's chromium, driven by
// playwright-core (both installed by scripts/install-client-tools.sh),
// opens the page the Worker serves, which loads <emoji-search-picker>
// (client/picker.js) and the library from the Worker's own static assets
// (/client/), and uses it as a person would: browsing, typing, the
// keyboard, recents, skin tones, Arabic, dark mode, 320 px; axe-core scans
// the empty, results and no-results states.
//
//	node client/test/browser/demo.mjs http://127.0.0.1:8787 [SCREENSHOT_DIR]
//
// With PICKER_KEY and PICKER_APP_PORT (TestDemoBrowser sets them) it also
// serves an app's page on http://127.0.0.1:PICKER_APP_PORT that embeds the
// element from BASE with that publishable key, whose app has a custom emoji
// :zebra_quokka: (aliases "zebra quokka"), and checks it comes first.
//
// Prints one JSON line of what it saw; exits non-zero on the first failed
// check. With SCREENSHOT_DIR it writes picker-light.png, picker-dark.png
// and picker-narrow.png there (README's pictures).
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import { createServer } from 'node:http'

const require = createRequire(fileURLToPath(new URL('../../.tools/', import.meta.url)))
const { chromium } = require('playwright-core')
const axePath = require.resolve('axe-core/axe.min.js')
const [base, shots] = process.argv.slice(2)
if (!base) throw new Error('usage: demo.mjs BASE_URL [SCREENSHOT_DIR]')

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
})
const seen = { errors: [], failed: [], axe: {} }
const check = (ok, what) => { if (!ok) throw new Error(`browser check failed: ${what} (${JSON.stringify(seen)})`) }
const P = 'emoji-search-picker'

async function open(query = '', viewport = { width: 1000, height: 760 }, context) {
  const page = await (context || browser).newPage({ viewport, locale: 'en-GB' })
  page.on('pageerror', (e) => seen.errors.push(String(e)))
  page.on('console', (m) => m.type() === 'error' && seen.errors.push(m.text()))
  page.on('response', (r) => r.status() >= 400 && seen.failed.push(`${r.status()} ${new URL(r.url()).pathname}`))
  // The session aborts a meaning request the next keystroke made stale (a
  // slow machine types slower than its debounce): not a failure.
  page.on('requestfailed', (r) => {
    const path = new URL(r.url()).pathname
    if (!(path === '/v1/search' && r.failure()?.errorText === 'net::ERR_ABORTED')) seen.failed.push(`failed ${path}`)
  })
  await page.goto(`${base}/${query}`, { waitUntil: 'domcontentloaded' })
  await ready(page)
  return page
}
const ready = (page) => page.waitForFunction(() => window.demo?.picker?.loaded === true, null, { timeout: 90_000 })
const input = (page) => page.locator(`${P} input`)
// options lists the listbox's options as the page shows them.
const options = (page, n = 100) => page.$$eval(`${P} [role=listbox]:not([hidden]) [role=option]`, (os, n) => os.slice(0, n).map((o) => ({ id: o.id, text: o.textContent, name: o.getAttribute('aria-label') })), n)
const active = (page) => page.evaluate((P) => {
  const root = document.querySelector(P).shadowRoot
  const id = root.querySelector('input').getAttribute('aria-activedescendant')
  const o = id && root.getElementById(id)
  return o && { id, text: o.textContent, selected: o.getAttribute('aria-selected'), name: o.getAttribute('aria-label') }
}, P)
const waitQuery = (page, q) => page.waitForFunction((q) => {
  const s = window.demo.picker.state
  return s?.query === q && s.status !== 'loading'
}, q, { timeout: 30_000 })
async function type(page, q) {
  await input(page).fill('')
  await input(page).pressSequentially(q, { delay: 40 })
  await waitQuery(page, q)
}
async function axe(page, state) {
  await page.addScriptTag({ path: axePath })
  const r = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => ({ id: v.id, impact: v.impact, n: v.nodes.length, target: v.nodes[0]?.target })))
  seen.axe[state] = r
  const bad = r.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  check(bad.length === 0, `axe: no serious or critical violations in the ${state} state`)
}

// embedded: the element on another origin, as an app ships it, with the
// app's publishable key (custom emoji first, keyed search, CORS).
async function embedded(key, port) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>An app</title><link rel="icon" href="data:,">
<script type="module" src="${base}/client/picker.js"></script></head><body><main>
<emoji-search-picker endpoint="${base}" key="${key}" locale="en"></emoji-search-picker></main>
<script>window.clicks = []; document.querySelector('emoji-search-picker').addEventListener('emoji-click', (e) => window.clicks.push(e.detail))</script></body></html>`
  const srv = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html))
  await new Promise((r) => srv.listen(port, '127.0.0.1', r))
  try {
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } })
    page.on('pageerror', (e) => seen.errors.push(String(e)))
    page.on('console', (m) => m.type() === 'error' && seen.errors.push(m.text()))
    page.on('response', (r) => r.status() >= 400 && seen.failed.push(`${r.status()} ${new URL(r.url()).pathname}`))
    await page.goto(`http://127.0.0.1:${port}/`)
    await page.waitForFunction((P) => document.querySelector(P)?.loaded === true, P, { timeout: 90_000 })
    await input(page).pressSequentially('zebra quokka', { delay: 40 })
    await page.waitForFunction((P) => document.querySelector(P).state?.query === 'zebra quokka', P, { timeout: 30_000 })
    const first = await page.evaluate((P) => {
      const o = document.querySelector(P).shadowRoot.querySelector('#res [role=option]')
      return { name: o.getAttribute('aria-label'), img: o.querySelector('img')?.src || '' }
    }, P)
    seen.custom = first
    check(first.name === 'zebra_quokka' && first.img.startsWith(`${base}/v1/custom/`), 'the app\'s custom emoji comes first, drawn from its image')
    await page.keyboard.press('Enter')
    const click = await page.evaluate(() => window.clicks.at(-1))
    check(click?.source === 'custom' && click.unicode === ':zebra_quokka:' && click.emoji.imageUrl === first.img, 'emoji-click for a custom emoji')
    await page.close()
  } finally {
    srv.close()
  }
}

try {
  // A fresh start in English: the grid by group, nothing failing.
  const page = await open()
  const grid = await page.evaluate((P) => {
    const root = document.querySelector(P).shadowRoot
    const [d] = performance.getEntriesByName('emoji-search-picker:data')
    const [g] = performance.getEntriesByName('emoji-search-picker:grid')
    return {
      tabs: [...root.querySelectorAll('nav button')].map((b) => b.getAttribute('aria-label')),
      headings: [...root.querySelectorAll('.h')].map((h) => h.textContent),
      built: root.querySelectorAll('[role=option]').length,
      catalog: window.demo.picker.engine.entries.length,
      combobox: root.querySelector('input').getAttribute('role') + ' ' + root.getElementById(root.querySelector('input').getAttribute('aria-controls')).getAttribute('role'),
      gridMs: Math.round(g.startTime - d.startTime),
    }
  }, P)
  seen.grid = grid
  check(grid.tabs.length === 9 && grid.tabs[0] === 'Smileys & emotion' && grid.tabs.includes('Flags'), 'category tabs, components left out')
  check(grid.headings.length === 9 && grid.headings[8] === 'Flags', 'a heading per group')
  check(grid.built >= 48 && grid.built < grid.catalog / 2, 'the first cells built at once, the others as they scroll near')
  check(grid.combobox === 'combobox listbox', 'the input is a combobox controlling the listbox')
  await axe(page, 'empty')
  await page.locator(`${P} nav button[aria-label=Flags]`).click()
  await page.waitForFunction((P) => document.querySelector(P).shadowRoot.querySelector('nav [aria-current=true]')?.getAttribute('aria-label') === 'Flags', P)
  check((await options(page, 5000)).some((o) => o.name === 'flag: Japan'), 'a tab brings its group in')

  // The keyboard: ArrowDown enters the grid, arrows move in two
  // dimensions, Enter emits emoji-click with the detail.
  await input(page).focus()
  await page.keyboard.press('ArrowDown')
  const first = await active(page)
  check(first?.id === 'b0-0' && first.text === '😀' && first.selected === 'true' && first.name === 'grinning face', 'ArrowDown activates the first emoji')
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowDown')
  const cols = await page.evaluate((P) => document.querySelector(P)._cols(), P)
  const moved = await active(page)
  seen.keys = { cols, moved }
  check(moved.id === `b0-${1 + cols}`, 'ArrowRight then ArrowDown: one column right, one row down')
  await page.keyboard.press('Enter')
  let click = await page.evaluate(() => window.demo.clicks.at(-1))
  check(click.unicode === moved.text && click.label === moved.name && click.source === 'grid' && click.skinTone === 0 && click.emoji.id === click.hexcode, 'Enter emits emoji-click with the active emoji')
  check(await page.locator('#picked').textContent() === moved.text + moved.name, 'the page shows the last pick')
  await page.keyboard.press('End')
  check((await active(page)).id.startsWith('b8-'), 'End goes to the last emoji (a flag)')
  await page.keyboard.press('Home')
  check((await active(page)).id === 'b0-0', 'Home goes back to the first')
  await page.keyboard.press('PageDown')
  const paged = +(await active(page)).id.split('-')[1]
  check(paged >= 2 * cols && paged % cols === 0, 'PageDown moves down by the rows in view, same column')
  await page.keyboard.press('PageUp')
  check((await active(page)).id === 'b0-0', 'PageUp moves back up')

  // Typing: device results at every keystroke; Enter picks the first.
  await type(page, 'cat')
  const cat = await options(page, 3)
  seen.cat = cat.map((o) => o.text)
  check(cat.some((o) => o.text === '🐱' || o.text === '🐈'), 'a cat for "cat"')
  check((await active(page))?.id === 'r0-0', 'the first result is active')
  await page.keyboard.press('Enter')
  click = await page.evaluate(() => window.demo.clicks.at(-1))
  check(click.unicode === cat[0].text && click.source === 'alias', 'Enter picks the first result')
  const live = await page.evaluate((P) => document.querySelector(P).shadowRoot.querySelector('[role=status]').textContent, P)
  check(/^Results: \d+$/.test(live), 'the live region announces the count')
  await axe(page, 'results')
  await page.keyboard.press('Escape')
  check(await input(page).inputValue() === '' && (await page.evaluate((P) => document.querySelector(P).shadowRoot.querySelectorAll('.h').length, P)) > 0, 'Escape clears back to the grid')

  // Nothing matches: a message, not a blank.
  await type(page, 'qqxqzzv')
  const none = await page.evaluate((P) => {
    const r = document.querySelector(P).shadowRoot
    return { msg: r.querySelector('.empty').textContent, shown: !r.querySelector('.empty').hidden, list: [...r.querySelectorAll('[role=listbox]')].every((l) => l.hidden), live: r.querySelector('[role=status]').textContent }
  }, P)
  seen.none = none
  check(none.shown && none.msg === 'No emoji found' && none.list && none.live === 'No emoji found', 'a message when nothing matches')
  await axe(page, 'no-results')

  // The skin tone: swatches, applied to results and remembered.
  await page.locator(`${P} .tone`).click()
  await page.keyboard.press('Escape')
  check(await page.locator(`${P} [role=radiogroup]`).isHidden(), 'Escape closes the swatches')
  await page.locator(`${P} .tone`).click()
  await page.locator(`${P} [role=radio][aria-label=Medium]`).click()
  await type(page, 'waving hand')
  const wave = (await options(page, 1))[0]
  check(wave.text === '👋🏽', 'the tone is applied to results')
  await page.keyboard.press('Enter')
  click = await page.evaluate(() => window.demo.clicks.at(-1))
  check(click.skinTone === 3 && click.unicode === '👋🏽' && click.hexcode === '1F44B-1F3FD', 'emoji-click carries the tone')

  // A reload: recents and the tone survive.
  await page.reload({ waitUntil: 'domcontentloaded' })
  await ready(page)
  const after = await page.evaluate((P) => {
    const p = document.querySelector(P)
    const r = p.shadowRoot
    return { tone: p.skinTone, button: r.querySelector('.tone').textContent, first: r.querySelector('.h').textContent, recent: [...r.querySelectorAll('[role=group]')[0].querySelectorAll('[role=option]')].map((o) => o.textContent) }
  }, P)
  seen.reload = after
  check(after.tone === 3 && after.button === '✋🏽', 'the skin tone persists')
  check(after.first === 'Frequently used' && after.recent.includes('👋🏽') && after.recent.includes(moved.text) && after.recent.includes(cat[0].text), 'recents survive a reload')
  if (shots) await page.screenshot({ path: path.join(shots, 'picker-light.png') })
  await page.close()

  // Spanish: "gracias" is 🙏 among the first three.
  const es = await open('?locale=es')
  await type(es, 'gracias')
  const gracias = await options(es, 3)
  seen.gracias = gracias.map((o) => o.text)
  check(gracias.some((o) => o.text === '🙏'), '🙏 among the first three for "gracias"')
  check(gracias.find((o) => o.text === '🙏').name === 'manos en oración', 'names in the picker\'s locale')
  await es.close()

  // Arabic: right to left, in Arabic, arrows follow the direction.
  const ar = await open('?locale=ar')
  const rtl = await ar.evaluate((P) => {
    const r = document.querySelector(P).shadowRoot
    return { dir: getComputedStyle(r.querySelector('.list')).direction, heading: r.querySelector('.h').textContent, placeholder: r.querySelector('input').placeholder }
  }, P)
  seen.rtl = rtl
  check(rtl.dir === 'rtl' && rtl.heading === 'الوجوه والمشاعر' && rtl.placeholder === 'ابحث عن رمز تعبيري', 'Arabic is right to left and in Arabic')
  await input(ar).focus()
  await ar.keyboard.press('ArrowDown')
  await ar.keyboard.press('ArrowLeft')
  check((await active(ar)).id === 'b0-1', 'ArrowLeft goes forward in right-to-left')
  await ar.close()

  // Dark: the system's preference, and the theme attribute.
  const ctx = await browser.newContext({ colorScheme: 'dark', viewport: { width: 1000, height: 760 } })
  const dark = await open('', undefined, ctx)
  const bg = () => dark.evaluate((P) => getComputedStyle(document.querySelector(P)).backgroundColor, P)
  seen.dark = await bg()
  check(seen.dark === 'rgb(31, 33, 37)', 'dark under prefers-color-scheme: dark')
  if (shots) await dark.screenshot({ path: path.join(shots, 'picker-dark.png') })
  await dark.evaluate((P) => document.querySelector(P).setAttribute('theme', 'light'), P)
  check(await bg() === 'rgb(255, 255, 255)', 'theme="light" wins over the system')
  await ctx.close()

  // 320 px wide: nothing wider than the screen.
  const narrow = await open('', { width: 320, height: 640 })
  const fit = await narrow.evaluate((P) => ({ page: document.documentElement.scrollWidth, picker: document.querySelector(P).getBoundingClientRect().width }), P)
  seen.narrow = fit
  check(fit.page <= 320 && fit.picker <= 300, 'the page and the picker fit 320 px')
  await type(narrow, 'party')
  if (shots) await narrow.screenshot({ path: path.join(shots, 'picker-narrow.png') })
  await narrow.close()

  if (process.env.PICKER_KEY) await embedded(process.env.PICKER_KEY, +process.env.PICKER_APP_PORT)

  check(seen.errors.length === 0, 'no console errors')
  check(seen.failed.length === 0, 'no failed requests')
  console.log(JSON.stringify({ ok: true, ...seen }))
} finally {
  await browser.close()
}
