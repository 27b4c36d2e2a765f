// The picker's speed bars in Chromium (issue 25), on the page the Worker
// serves at / (build, then `build/bin/hostsim serve`):
//
//	node bench/client/picker.mjs http://127.0.0.1:8787 [loads=8]
//
// 1. Data loaded to first grid painted: fresh pages (English, then Spanish),
//    the time between the element's marks `emoji-search-picker:data` (packs
//    fetched) and `emoji-search-picker:grid` (a frame after the grid was
//    built, so its paint is in; `emoji-search-picker:built` splits off the
//    script and DOM work from style, layout, paint and the wait for a frame);
//    from a trace of each load, the same spans in the main thread's CPU
//    time (each mark's thread clock, `tts`), so the wait for a core on a
//    loaded machine is left out.
// 2. A keystroke to updated results painted, English with Spanish loaded
//    (locale es): hand-written queries typed into the box one key at a
//    time through the browser's input pipeline (playwright's keyboard),
//    timed in the page (see instrument): `work` is the bar, from the
//    keydown to the end of the frame that paints the results, without the
//    idle wait for that frame to begin; `toPaint` adds that wait (up to
//    16.7 ms at 60 Hz, whatever the page does); `handler` and `frame` are
//    the two parts of `work`, `search` the session's aliasMs.
// 3. The same two in main-thread CPU time (Chrome DevTools Protocol
//    Performance metrics with timeDomain threadTicks: TaskDuration, which
//    counts only time the renderer's main thread ran, so the other
//    developers' load on the machine is left out): per keystroke (the
//    key's events, search, results, its frame, plus the protocol's own
//    evaluate: an upper bound), and for the grid rebuilt from the packs
//    in a warm page (catalog, can-draw probes, the grid's first cells,
//    layout; the emoji font is loaded by then).
// PICKER_SRC=dir serves client/src/picker/*.js from dir instead (for a
// paired comparison with another version: run both, alternating).
// Prints one JSON line.
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { cpus, loadavg } from 'node:os'
import { readFileSync } from 'node:fs'

const require = createRequire(fileURLToPath(new URL('../../client/.tools/', import.meta.url)))
const { chromium } = require('playwright-core')
const [base, loadsArg] = process.argv.slice(2)
if (!base) throw new Error('usage: picker.mjs BASE_URL [loads]')
const loads = +(loadsArg || 8)

// Everyday queries in English and Spanish, written for this benchmark.
const QUERIES = [
  'cat', 'happy birthday', 'thank you', 'pizza', 'heart', 'fire', 'sad face', 'party', 'tired', 'love', 'laugh', 'dog',
  'rocket', 'music', 'coffee', 'gracias', 'fiesta', 'corazón', 'gato', 'feliz cumpleaños', 'comida', 'perro', 'lluvia', 'sol',
]
// instrument times each keystroke in the page: t0 the timeStamp of its
// keydown (or of its beforeinput, for text typed without a key), t1 after
// the picker's input handler (registered before this one), t2 at the next
// animation frame, t3 in a task posted from that frame, which runs once the
// frame's style, layout, paint and commit are done. work = (t1 - t0) +
// (t3 - t2): what the page spends from the key to the results painted, the
// idle wait for the frame left out; toPaint = t3 - t0 puts that wait (up to
// a frame) back in.
function instrument() {
  const picker = window.demo.picker
  const input = picker.shadowRoot.querySelector('input')
  const done = (window.benchKeys = [])
  let cur
  // From the time the browser stamped on the key's event, so a key that
  // waits for the page's earlier work counts that wait. A key that types
  // nothing (Escape) leaves no keystroke behind it.
  input.addEventListener('keydown', (ev) => { cur = { t0: ev.timeStamp } }, true)
  input.addEventListener('beforeinput', (ev) => { cur ||= { t0: ev.timeStamp } }, true)
  input.addEventListener('keyup', () => { cur = undefined }, true)
  input.addEventListener('input', () => {
    const k = cur
    if (!k) return
    cur = undefined
    k.t1 = performance.now()
    k.search = picker.state?.aliasMs ?? 0
    requestAnimationFrame(() => {
      const t2 = performance.now()
      const ch = new MessageChannel()
      ch.port1.onmessage = () => {
        const t3 = performance.now()
        done.push({ work: k.t1 - k.t0 + t3 - t2, handler: k.t1 - k.t0, frame: t3 - t2, toPaint: t3 - k.t0, search: k.search })
      }
      ch.port2.postMessage(0)
    })
  })
}
// painted waits for the last keystroke's frame and returns its times.
async function painted() {
  while (!window.benchKeys.length) await new Promise((r) => setTimeout(r, 2))
  return window.benchKeys.shift()
}
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b)
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(2)
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
})
const src = process.env.PICKER_SRC
const newPage = async () => {
  const page = await browser.newPage({ viewport: { width: 1000, height: 760 } })
  if (src) {
    await page.route('**/client/src/picker/*.js', (route) => route.fulfill({
      contentType: 'text/javascript', body: readFileSync(`${src}/${new URL(route.request().url()).pathname.split('/').pop()}`),
    }))
  }
  return page
}
const out = { src, loadavg: loadavg().map((x) => +x.toFixed(1)), cpus: cpus().length, grid: {}, keystroke: {} }
try {
  for (const locale of ['en', 'es']) {
    const ms = []
    for (let i = 0; i < loads; i++) {
      const page = await newPage()
      await browser.startTracing(page, { categories: ['blink.user_timing'] })
      await page.goto(`${base}/?locale=${locale}&region=`)
      await page.waitForFunction(() => window.demo?.picker?.loaded === true, null, { timeout: 90_000 })
      // Each mark in the trace carries ts (wall) and tts (the main thread's CPU clock), in µs.
      const marks = Object.fromEntries(JSON.parse(await browser.stopTracing()).traceEvents
        .filter((e) => e.name?.startsWith('emoji-search-picker:')).map((e) => [e.name.split(':')[1], e]))
      const d = (m, k) => (marks[m][k] - marks.data[k]) / 1000
      ms.push([d('grid', 'ts'), d('built', 'ts'), d('grid', 'tts'), d('built', 'tts')])
      await page.close()
    }
    const painted = ms.map((m) => m[0])
    const built = ms.map((m) => m[1])
    const cpu = ms.map((m) => m[2])
    out.grid[locale] = {
      runs: ms.length, p50: pct(painted, 50), p95: pct(painted, 95), max: pct(painted, 100), builtP50: pct(built, 50), builtP95: pct(built, 95),
      cpuP50: pct(cpu, 50), cpuP95: pct(cpu, 95), cpuMax: pct(cpu, 100), cpuBuiltP50: pct(ms.map((m) => m[3]), 50),
    }
  }

  const page = await newPage()
  await page.goto(`${base}/?locale=es&region=`)
  await page.waitForFunction(() => window.demo?.picker?.loaded === true, null, { timeout: 90_000 })
  await page.evaluate(instrument)
  const input = page.locator('emoji-search-picker input')
  await input.focus()
  const keys = []
  for (let round = 0; round < 2; round++) {
    for (const q of QUERIES) {
      // One key at a time, each after the last one's frame is painted.
      for (const ch of q) {
        await page.keyboard.type(ch)
        keys.push(await page.evaluate(painted))
      }
      await page.keyboard.press('Escape')
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r))))
    }
  }
  const col = (k) => keys.map((x) => x[k])
  const row = (xs) => ({ p50: pct(xs, 50), p95: pct(xs, 95), max: pct(xs, 100) })
  out.keystroke.wall = {
    keys: keys.length, work: row(col('work')), handler: row(col('handler')), frame: row(col('frame')),
    toPaint: row(col('toPaint')), search: row(col('search')),
  }

  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' })
  const cpu = async () => (await cdp.send('Performance.getMetrics')).metrics.find((x) => x.name === 'TaskDuration').value * 1000
  const perKey = []
  for (const q of QUERIES) {
    for (const ch of q) {
      const a = await cpu()
      await page.keyboard.type(ch)
      await page.evaluate(painted)
      perKey.push((await cpu()) - a)
    }
    await page.keyboard.press('Escape')
  }
  out.keystroke.cpu = { keys: perKey.length, p50: pct(perKey, 50), p95: pct(perKey, 95), max: pct(perKey, 100) }
  await page.evaluate(() => {
    const input = window.demo.picker.shadowRoot.querySelector('input')
    input.value = ''
    input.dispatchEvent(new Event('input'))
  })
  await page.evaluate(async () => {
    window.bench = {
      catalog: (await import('/client/src/picker/catalog.js')).catalog,
      drawableTest: (await import('/client/src/picker/draw.js')).drawableTest,
      packs: await (await import('/client/index.js')).loadPacks({ baseUrl: `${location.origin}/v1/pack/${window.demo.picker.engine.packVersion}`, locales: ['es'] }),
    }
  })
  const perGrid = []
  for (let i = 0; i < loads; i++) {
    const a = await cpu()
    await page.evaluate(() => {
      const p = window.demo.picker
      p._cat = window.bench.catalog(window.bench.packs, 'es')
      p._canDraw = window.bench.drawableTest(p._cat.entries)
      p._gridSecs = undefined
      p._browse()
      void p.shadowRoot.querySelector('#grid').offsetHeight
    })
    perGrid.push((await cpu()) - a)
  }
  out.grid.cpuRebuild = { runs: perGrid.length, p50: pct(perGrid, 50), p95: pct(perGrid, 95), max: pct(perGrid, 100) }
  await page.close()
} finally {
  await browser.close()
}
console.log(JSON.stringify(out))
