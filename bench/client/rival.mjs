// <emoji-search-picker> beside emoji-picker-element 1.29.1 in the same
// Chromium, one run, alternating, so the machine's load falls on both:
//
//	INSTALL_BENCH=1 scripts/install-client-tools.sh   # the rival, into bench/client/node_modules
//	node bench/client/rival.mjs http://127.0.0.1:8787 [loads=6]
//
// Ours is the page the Worker serves at /; the rival's page is served here
// from 127.0.0.1 with its English data (emoji-picker-element-data 1.8.0,
// emojibase). Both are measured from a fresh page:
// - navigation to the first grid painted (ours: the mark
//   emoji-search-picker:grid; the rival: the first frame whose shadow root
//   holds an emoji of its grid, plus one more frame), wall clock and the
//   main thread's CPU time up to the mark (the `tdur` of its top-level
//   tasks in a trace; a fresh browser context each time, so a new renderer);
// - typing: every prefix of English queries set into each search box, the
//   wall time from the input event to the first change of the element's
//   shadow DOM (the rival searches IndexedDB asynchronously, so both are
//   waited for the same way), and the main thread's CPU time over the same
//   step (CDP TaskDuration, threadTicks; the protocol's evaluate included
//   on both sides); a prefix that changes nothing within 500 ms is counted
//   apart.
// Prints one JSON line.
import { createRequire } from 'node:module'
import { createServer } from 'node:http'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { loadavg } from 'node:os'

const require = createRequire(fileURLToPath(new URL('../../client/.tools/', import.meta.url)))
const { chromium } = require('playwright-core')
const nm = fileURLToPath(new URL('./node_modules/', import.meta.url))
const [base, loadsArg] = process.argv.slice(2)
if (!base) throw new Error('usage: rival.mjs BASE_URL [loads]')
const loads = +(loadsArg || 6)
const QUERIES = ['cat', 'happy birthday', 'thank you', 'pizza', 'heart', 'fire', 'sad face', 'party', 'tired', 'love', 'laugh', 'dog', 'rocket', 'music', 'coffee']
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b)
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(2)
}

// The rival's page: its element, its data, a mark when its grid is painted.
const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="/epe/index.js"></script></head><body>
<emoji-picker data-source="/data.json"></emoji-picker>
<script>
  const tick = () => {
    const root = document.querySelector('emoji-picker').shadowRoot
    if (root?.querySelector('.emoji-menu [role=menuitem]')) return requestAnimationFrame(() => setTimeout(() => { performance.mark('rival:grid'); window.loaded = true }))
    requestAnimationFrame(tick)
  }
  requestAnimationFrame(tick)
</script></body></html>`
const srv = createServer(async (req, res) => {
  const p = new URL(req.url, 'http://x').pathname
  try {
    if (p === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(page)
    if (p === '/data.json') return res.writeHead(200, { 'content-type': 'application/json' }).end(await readFile(join(nm, 'emoji-picker-element-data/en/emojibase/data.json')))
    if (p.startsWith('/epe/')) return res.writeHead(200, { 'content-type': 'text/javascript' }).end(await readFile(join(nm, 'emoji-picker-element', p.slice(5).replace(/\.\./g, ''))))
  } catch {}
  res.writeHead(404).end()
})
await new Promise((r) => srv.listen(0, '127.0.0.1', r))
const rival = `http://127.0.0.1:${srv.address().port}/`

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
})
const out = { loadavg: loadavg().map((x) => +x.toFixed(1)) }
const sides = {
  ours: { url: `${base}/?locale=en&region=`, mark: 'emoji-search-picker:grid', ready: () => window.demo?.picker?.loaded === true },
  rival: { url: rival, mark: 'rival:grid', ready: () => window.loaded === true },
}
try {
  const first = { ours: [], rival: [] }
  for (let i = 0; i < loads; i++) {
    for (const [name, side] of Object.entries(sides)) {
      const ctx = await browser.newContext({ viewport: { width: 1000, height: 760 } }) // fresh IndexedDB and cache
      const p = await ctx.newPage()
      await browser.startTracing(p, { categories: ['blink.user_timing', 'toplevel'] })
      await p.goto(side.url)
      await p.waitForFunction(side.ready, null, { timeout: 90_000 })
      const ev = JSON.parse(await browser.stopTracing()).traceEvents
      const mark = ev.find((e) => e.name === side.mark)
      // The page's main thread: its top-level tasks' CPU time (tdur) up to the mark.
      const cpu = ev.filter((e) => e.pid === mark.pid && e.tid === mark.tid && e.ph === 'X' && e.cat === 'toplevel' && e.ts < mark.ts && e.tdur)
        .reduce((a, e) => a + e.tdur, 0) / 1000
      const wall = await p.evaluate((m) => performance.getEntriesByName(m)[0].startTime, side.mark)
      first[name].push([wall, cpu])
      await ctx.close()
    }
  }
  for (const name of Object.keys(first)) {
    const w = first[name].map((x) => x[0])
    const c = first[name].map((x) => x[1])
    out[name] = { firstGrid: { runs: w.length, wallP50: pct(w, 50), wallP95: pct(w, 95), cpuP50: pct(c, 50), cpuP95: pct(c, 95) } }
  }

  for (const [name, side] of Object.entries(sides)) {
    const ctx = await browser.newContext({ viewport: { width: 1000, height: 760 } })
    const p = await ctx.newPage()
    await p.goto(side.url)
    await p.waitForFunction(side.ready, null, { timeout: 90_000 })
    await p.waitForTimeout(1000)
    await p.evaluate((name) => {
      const host = document.querySelector(name === 'ours' ? 'emoji-search-picker' : 'emoji-picker')
      const root = host.shadowRoot
      const input = root.querySelector(name === 'ours' ? 'input' : '#search')
      // type sets a prefix; it resolves with the wall time to the first change
      // of the shadow DOM, or -1 when nothing changed within 500 ms.
      window.type = (v) => new Promise((resolve) => {
        let t0
        const mo = new MutationObserver(() => { mo.disconnect(); clearTimeout(t); resolve(performance.now() - t0) })
        const t = setTimeout(() => { mo.disconnect(); resolve(-1) }, 500)
        mo.observe(root, { childList: true, subtree: true, characterData: true })
        input.value = v
        t0 = performance.now()
        input.dispatchEvent(new Event('input', { bubbles: true, composed: true }))
      })
    }, name)
    const cdp = await ctx.newCDPSession(p)
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' })
    const cpu = async () => (await cdp.send('Performance.getMetrics')).metrics.find((x) => x.name === 'TaskDuration').value * 1000
    const wall = []
    const cpus = []
    let unchanged = 0
    for (const q of QUERIES) {
      for (let n = 1; n <= q.length; n++) {
        const a = await cpu()
        const ms = await p.evaluate((v) => window.type(v), q.slice(0, n))
        const c = (await cpu()) - a
        if (ms < 0) unchanged++
        else {
          wall.push(ms)
          cpus.push(c)
        }
      }
      await p.evaluate(() => window.type(''))
      await p.waitForTimeout(100)
    }
    out[name].keystroke = { changed: wall.length, unchanged, wallP50: pct(wall, 50), wallP95: pct(wall, 95), cpuP50: pct(cpus, 50), cpuP95: pct(cpus, 95) }
    await ctx.close()
  }
} finally {
  await browser.close()
  srv.close()
}
out.loadavgAfter = loadavg().map((x) => +x.toFixed(1))
console.log(JSON.stringify(out))
