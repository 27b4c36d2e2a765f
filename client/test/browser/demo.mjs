// The browser test: Debian's chromium, driven by playwright-core (both
// installed by scripts/install-client-tools.sh), opens the demo page the
// Worker serves at /, which imports the library from the Worker's own
// static assets (/client/), and searches as a person would.
//
//	node client/test/browser/demo.mjs http://127.0.0.1:8787 [screenshot.png]
//
// Prints one JSON line of what it saw; exits non-zero on the first failed check.
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const require = createRequire(fileURLToPath(new URL('../../.tools/', import.meta.url)))
const { chromium } = require('playwright-core')
const [base, shot] = process.argv.slice(2)
if (!base) throw new Error('usage: demo.mjs BASE_URL [SCREENSHOT]')

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
})
const seen = { library: 0, packs: [], errors: [] }
const check = (ok, what) => { if (!ok) throw new Error(`browser check failed: ${what} (${JSON.stringify(seen)})`) }
try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 760 }, locale: 'en-GB' })
  page.on('pageerror', (e) => seen.errors.push(String(e)))
  page.on('response', (r) => {
    const u = new URL(r.url())
    if (u.pathname === '/client/index.js' && r.status() === 200 && /javascript/.test(r.headers()['content-type'])) seen.library++
    if (u.pathname.startsWith('/v1/pack/')) seen.packs.push(`${u.pathname.split('/').pop()} ${r.status()}`)
    if (u.pathname.endsWith('/device.en.bin')) seen.index = `${r.status()} ${r.headers()['content-type']}`
  })
  const ready = () => page.waitForFunction(() => window.demo?.ready === true, null, { timeout: 90_000 })
  const firstIds = () => page.$$eval('#results li', (lis) => lis.slice(0, 10).map((li) => li.dataset.id))
  const waitQuery = (q) => page.waitForFunction((q) => window.demo?.last?.query === q, q, { timeout: 30_000 })

  await page.goto(base + '/', { waitUntil: 'domcontentloaded' })
  await ready()
  check(seen.library === 1, 'the library loaded from the Worker at /client/index.js')
  check(seen.index === '200 application/octet-stream' && await page.evaluate(() => window.demo.binary === true && window.demo.engine._ix.segs[0].constructor.name === 'BinSeg'),
    'loadPacks fetched device.en.bin and the engine reads English from it')
  check(await page.$eval('#region', (el) => el.value) === 'GB', 'deviceRegion() reads the browser language tag')

  // Typing: dictionary results at every keystroke, in the page's own engine.
  await page.click('#q')
  await page.keyboard.type('cat', { delay: 60 })
  await waitQuery('cat')
  const cat = await firstIds()
  seen.cat = cat
  check(cat.includes('1F431') || cat.includes('1F408'), 'a cat for "cat"')
  const same = await page.evaluate(() => window.demo.engine.search('cat', { limit: 30, locale: 'en', culture: false }).results.map((r) => r.id))
  check(same[0] === cat[0], 'the list is the engine\'s ranking')

  // A phrase the dictionary is unsure of: meaning results fused from /v1/search.
  await page.fill('#q', '')
  await page.keyboard.type('rainy day on the couch', { delay: 30 })
  await page.waitForFunction(() => ['fused', 'alias', 'error'].includes(window.demo?.last?.status) && window.demo.last.query === 'rainy day on the couch', null, { timeout: 30_000 })
  const st = await page.evaluate(() => ({ status: window.demo.last.status, layer: window.demo.last.layer, n: window.demo.last.results.length, sem: window.demo.last.results.filter((r) => r.source === 'semantic').length }))
  seen.tired = st
  check(st.status === 'fused' && st.layer === 'api' && st.n > 0, 'meaning results fused in from the API (no shards yet: the API answers)')

  // Skin tone on a hand.
  await page.selectOption('#tone', '3')
  await page.fill('#q', 'waving hand')
  await waitQuery('waving hand')
  const wave = await page.$eval('#results li .e', (el) => el.textContent)
  seen.wave = wave
  check(wave.includes('\u{1F3FD}'), 'skin tone applied')

  // Another locale: French packs load, "chat" is a cat.
  await page.selectOption('#locale', 'fr')
  await ready()
  await page.fill('#q', 'chat')
  await waitQuery('chat')
  const chat = await firstIds()
  seen.chat = chat
  check(chat.includes('1F431') || chat.includes('1F408'), 'a cat for French "chat"')
  check(seen.packs.some((p) => p.startsWith('device.fr.bin 200')), 'French device index loaded from /v1/pack/')

  // Back to English for the picture.
  await page.selectOption('#locale', 'en')
  await ready()
  await page.selectOption('#tone', '0')
  await page.fill('#q', 'party')
  await waitQuery('party')
  seen.party = (await firstIds()).slice(0, 3)
  check(seen.errors.length === 0, 'no page errors')
  if (shot) await page.screenshot({ path: shot })
  console.log(JSON.stringify({ ok: true, ...seen }))
} finally {
  await browser.close()
}
