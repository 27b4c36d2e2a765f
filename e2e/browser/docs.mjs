// The /docs page in headless Chromium (Debian's chromium, playwright-core
// from client/.tools, axe-core from .apitools): the reference renders from
// /openapi.json, every request stays on this origin (no CDN, no fonts from
// elsewhere), a try-it call reaches the Worker, and axe finds no serious
// or critical violation.
//
//	node e2e/browser/docs.mjs http://127.0.0.1:8787 [screenshot.png]
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const clientTools = createRequire(fileURLToPath(new URL('../../client/.tools/', import.meta.url)))
const apiTools = createRequire(fileURLToPath(new URL('../../.apitools/', import.meta.url)))
const { chromium } = clientTools('playwright-core')
const axeSource = apiTools.resolve('axe-core/axe.min.js')
const [base, shot] = process.argv.slice(2)
if (!base) throw new Error('usage: docs.mjs BASE_URL [SCREENSHOT]')

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
})
const seen = { foreign: [], errors: [], spec: 0 }
const check = (ok, what) => { if (!ok) throw new Error(`docs check failed: ${what} (${JSON.stringify(seen)})`) }
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.on('pageerror', (e) => seen.errors.push(String(e)))
  page.on('request', (r) => {
    const u = new URL(r.url())
    if (u.origin !== base && u.protocol !== 'data:' && u.protocol !== 'blob:') seen.foreign.push(u.origin)
  })
  page.on('response', (r) => { if (new URL(r.url()).pathname === '/openapi.json' && r.status() === 200) seen.spec++ })
  await page.goto(base + '/docs/', { waitUntil: 'networkidle' })
  await page.getByText('Search emoji').first().waitFor({ timeout: 60_000 })
  check(seen.spec >= 1, 'the page read /openapi.json')
  seen.title = await page.title()
  seen.operations = await page.getByText('Suggest reactions to a chat message').count()
  check(seen.operations >= 1, 'operations are listed')

  // Try-it: the page's own client sends GET /v1/health to this origin.
  const health = await page.evaluate(async () => (await fetch('/v1/health')).status)
  check(health === 200, 'a call from the page reaches the Worker')

  await page.addScriptTag({ path: axeSource })
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] })
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, n: v.nodes.length, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ' ' + (n.any[0]?.message || '')) }))
  })
  seen.axe = result
  const bad = result.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  if (shot) await page.screenshot({ path: shot })
  check(seen.foreign.length === 0, 'no request leaves the origin')
  check(seen.errors.length === 0, 'no page error')
  check(bad.length === 0, 'axe: no serious or critical violation')
  console.log(JSON.stringify({ ok: true, ...seen }))
} finally {
  await browser.close()
}
