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
// 2. A keystroke to updated results, English with Spanish loaded (locale
//    es): every prefix of hand-written queries typed into the box, timed
//    in the page from the input event to the results laid out (the
//    session's search, the listbox rebuilt, style and layout forced; the
//    search alone is the session's aliasMs).
// 3. The same two in main-thread CPU time (Chrome DevTools Protocol
//    Performance metrics with timeDomain threadTicks: TaskDuration, which
//    counts only time the renderer's main thread ran, so the other
//    developers' load on the machine is left out): per keystroke (the
//    input event, search, listbox and layout, plus the protocol's own
//    evaluate: an upper bound), and for the grid rebuilt from the packs
//    in a warm page (catalog, can-draw probes, the grid's first cells,
//    layout; the emoji font is loaded by then).
// Prints one JSON line.
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { cpus, loadavg } from 'node:os'

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
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b)
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(2)
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
})
const out = { loadavg: loadavg().map((x) => +x.toFixed(1)), cpus: cpus().length, grid: {}, keystroke: {} }
try {
  for (const locale of ['en', 'es']) {
    const ms = []
    for (let i = 0; i < loads; i++) {
      const page = await browser.newPage({ viewport: { width: 1000, height: 760 } })
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

  const page = await browser.newPage({ viewport: { width: 1000, height: 760 } })
  await page.goto(`${base}/?locale=es&region=`)
  await page.waitForFunction(() => window.demo?.picker?.loaded === true, null, { timeout: 90_000 })
  const inPage = await page.evaluate(async (queries) => {
    const picker = window.demo.picker
    const input = picker.shadowRoot.querySelector('input')
    const list = picker.shadowRoot.querySelector('.list')
    const times = []
    const search = []
    for (let round = 0; round < 2; round++) {
      for (const q of queries) {
        for (let n = 1; n <= q.length; n++) {
          input.value = q.slice(0, n)
          const t0 = performance.now()
          input.dispatchEvent(new Event('input'))
          void list.offsetHeight
          times.push(performance.now() - t0)
          search.push(picker.state.aliasMs)
          await new Promise((r) => setTimeout(r, 5))
        }
        input.value = ''
        input.dispatchEvent(new Event('input'))
        await new Promise((r) => requestAnimationFrame(r))
      }
    }
    return { times, search }
  }, QUERIES)
  const t = inPage.times
  const own = t.map((x, i) => x - inPage.search[i])
  out.keystroke.inPage = { keys: t.length, p50: pct(t, 50), p95: pct(t, 95), max: pct(t, 100), searchP50: pct(inPage.search, 50), searchP95: pct(inPage.search, 95), pickerP50: pct(own, 50), pickerP95: pct(own, 95) }

  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' })
  const cpu = async () => (await cdp.send('Performance.getMetrics')).metrics.find((x) => x.name === 'TaskDuration').value * 1000
  const perKey = []
  for (const q of QUERIES) {
    for (let n = 1; n <= q.length; n++) {
      const a = await cpu()
      await page.evaluate((v) => {
        const root = window.demo.picker.shadowRoot
        const input = root.querySelector('input')
        input.value = v
        input.dispatchEvent(new Event('input'))
        void root.querySelector('#res').offsetHeight
      }, q.slice(0, n))
      perKey.push((await cpu()) - a)
    }
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
