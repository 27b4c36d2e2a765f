// The dashboard journey in real Chromium: Debian's chromium driven by
// playwright-core, with an axe-core scan of every page (both installed into
// client/.tools by scripts/install-client-tools.sh). Run by
// TestDashboardBrowser (e2e/dashboard_browser_test.go), which starts the
// Worker, the webhook receiver and checks what arrived there.
//
//	node dashboard/test/journey.mjs BASE_URL RECEIVER_URL EMOJI.png SHOT_DIR [SLACK_TOKEN]
//
// The service must point its team-chat import at a fake provider
// (IMPORT_SLACK_API, as the e2e suite does); SLACK_TOKEN is a token that
// fake lists "blobwave" and "zorblax" for; without it the import step only
// checks a refused token.
//
// Prints one JSON line of what it saw; exits non-zero on the first failed check.
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const require = createRequire(fileURLToPath(new URL('../../client/.tools/', import.meta.url)))
const { chromium } = require('playwright-core')
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')
const [base, receiver, emojiPng, shots, slackToken] = process.argv.slice(2)
if (!shots) throw new Error('usage: journey.mjs BASE_URL RECEIVER_URL EMOJI.png SHOT_DIR')

const seen = { axe: {}, foreign: [], errors: [], timings: {} }
const check = (ok, what) => { if (!ok) throw new Error(`dashboard check failed: ${what} (${JSON.stringify(seen)})`) }
const run = Math.random().toString(36).slice(2, 8)

const launch = () => chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
})
let browser
try { browser = await launch() } catch { browser = await launch() } // about 1 launch in 10 fails at start here

// newPage opens a context of its own (a second person) that records every
// request to another origin and every page error.
async function newPage (opts = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1100, height: 820 }, locale: 'en-GB', colorScheme: 'light', ...opts })
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base })
  const page = await ctx.newPage()
  page.on('request', (r) => { if (!r.url().startsWith(base + '/') && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) seen.foreign.push(r.url()) })
  page.on('pageerror', (e) => seen.errors.push(String(e)))
  return page
}

// scan runs axe-core on the page as it is now: no serious or critical
// violation may remain.
async function scan (page, name) {
  if (!await page.evaluate(() => typeof window.axe === 'object')) await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })))
  seen.axe[name] = violations.map((v) => `${v.id}:${v.impact}`)
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  check(bad.length === 0, `axe on ${name}: ${JSON.stringify(bad)}`)
}

const heading = (page, text) => page.getByRole('heading', { level: 1, name: text }).waitFor({ timeout: 15_000 })
const tab = async (page, name, h1) => {
  await page.getByRole('navigation', { name: 'App sections' }).getByRole('link', { name, exact: true }).click()
  await heading(page, h1)
}
const nav = async (page, name) => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click()
  await heading(page, name)
}
// confirm clicks a button that asks first, and answers the dialog.
const confirm = async (page, button, answer) => {
  await button.click()
  await page.getByRole('dialog').getByRole('button', { name: answer, exact: true }).click()
  await page.getByRole('dialog').waitFor({ state: 'hidden' })
}
const search = async (key, q) => {
  const res = await fetch(`${base}/v1/search?q=${encodeURIComponent(q)}&limit=5`, { headers: { Authorization: 'Bearer ' + key } })
  return { status: res.status, body: await res.json() }
}

try {
  const page = await newPage()

  // Sign in (the development sign-in on localhost). Interactive: the
  // app's User Timing mark once its first page is rendered, from the
  // navigation's start.
  const interactive = (p) => p.evaluate(() => Math.round(performance.getEntriesByName('dashboard-interactive')[0]?.startTime ?? -1))
  const sinceNavigation = () => interactive(page)
  await page.goto(base + '/dashboard/', { waitUntil: 'commit' })
  await page.getByLabel('Login name').waitFor()
  seen.timings.signInInteractiveMs = await sinceNavigation()
  await scan(page, 'sign-in')
  const owner = `owner-${run}`
  await page.getByLabel('Login name').fill(owner)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await heading(page, 'Apps')
  await scan(page, 'apps')
  await page.goto(base + '/dashboard/', { waitUntil: 'commit' })
  await page.getByRole('button', { name: 'Create app' }).waitFor()
  seen.timings.appsInteractiveMs = await sinceNavigation()

  // Create an app.
  await nav(page, 'Apps')
  await page.getByLabel('Name').fill('Journey app')
  await page.getByLabel('Environment').selectOption('development')
  await page.getByRole('button', { name: 'Create app' }).click()
  await heading(page, 'Journey app: Keys')
  const appId = page.url().split('/apps/')[1].split('/')[0]
  seen.appId = appId

  // A secret key, shown once, copied with its button.
  await page.getByLabel('Kind').selectOption('secret')
  await page.getByRole('button', { name: 'Create key' }).click()
  const shown = await page.locator('.secret-value').textContent()
  await page.getByRole('button', { name: 'Copy full key' }).click()
  await page.getByRole('button', { name: 'Copied' }).waitFor()
  const key = await page.evaluate(() => navigator.clipboard.readText())
  check(key === shown && key.length > 20, 'the copy button copied the full key')
  // The list is read again after the key is created: wait for its row.
  await page.locator('table.list tbody tr').first().waitFor()
  check(await page.locator('table.list tbody tr').count() === 1, 'the key is listed')
  await scan(page, 'keys')

  // A publishable key revoked with the keyboard alone: the confirmation
  // is a modal dialog that takes the focus.
  await page.getByLabel('Kind').selectOption('publishable')
  await page.getByLabel('Allowed origins').fill('https://example.com')
  await page.getByRole('button', { name: 'Create key' }).click()
  await page.getByRole('cell', { name: 'https://example.com' }).waitFor()
  const revoke = page.getByRole('row').filter({ hasText: 'https://example.com' }).getByRole('button', { name: 'Revoke' })
  await revoke.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog')
  await dialog.waitFor()
  await scan(page, 'keys-confirm')
  check(await dialog.evaluate((d) => d.contains(document.activeElement)), 'the dialog has the focus')
  await page.keyboard.press('Enter')
  await page.getByRole('cell', { name: /^revoked/ }).waitFor()

  // Free has no analytics: the 402 is an upgrade prompt naming the plan,
  // which leads to billing, where local development can switch plans
  // (webhooks and tenants need Scale).
  await tab(page, 'Analytics', 'Journey app: Analytics')
  await page.getByText('This needs the Pro plan or higher.').waitFor()
  await scan(page, 'analytics-upgrade')
  await page.getByRole('link', { name: 'See plans and join the Pro waitlist' }).click()
  await heading(page, 'Billing')
  await page.getByLabel('Plan', { exact: true }).selectOption('scale')
  await page.getByRole('button', { name: 'Set plan' }).click()
  await page.getByText('Plan: Scale').waitFor()
  await scan(page, 'billing')
  await page.goBack()
  await heading(page, 'Journey app: Analytics')
  await page.goBack()
  await heading(page, 'Journey app: Keys')

  // Search with it; the usage chart shows the calls after the write-behind.
  for (const q of ['cat', 'happy', 'pizza']) {
    const r = await search(key, q)
    check(r.status === 200 && r.body.results.length > 0, `search ${q} with the copied key: ${r.status}`)
  }
  await tab(page, 'Usage', 'Journey app: Usage')
  const w0 = Date.now()
  for (;;) {
    const total = await page.locator('#usage-chart').getAttribute('data-total')
    if (total === '3') break
    check(Date.now() - w0 < 45_000, `the usage chart shows 3 searches (shows ${total})`)
    await page.waitForTimeout(2000)
    await page.getByRole('button', { name: 'Refresh' }).click()
  }
  seen.timings.usageShownAfterMs = Date.now() - w0
  await page.locator('#usage-chart canvas').waitFor() // uPlot, loaded with the first chart
  await page.getByText('Daily figures').click()
  await scan(page, 'usage')
  await page.screenshot({ path: join(shots, 'dashboard-usage.png'), fullPage: true })

  await tab(page, 'Analytics', 'Journey app: Analytics')
  await page.locator('#analytics-chart').waitFor()
  await page.getByRole('button', { name: '7 days' }).click()
  await page.getByText('Last 7 days').waitFor()
  await page.getByRole('cell', { name: 'English (en)' }).waitFor() // the three keyed searches' locale
  await scan(page, 'analytics')

  // Upload an emoji by dropping a file on the drop zone.
  await tab(page, 'Custom emoji', 'Journey app: Custom emoji')
  const png = readFileSync(emojiPng).toString('base64')
  await page.evaluate((b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))
    const dt = new DataTransfer()
    dt.items.add(new File([bytes], 'zorblax.png', { type: 'image/png' }))
    document.querySelector('.drop').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }))
  }, png)
  await page.getByText('Chosen: zorblax.png').waitFor()
  check(await page.getByLabel('Shortcode').inputValue() === 'zorblax', 'the shortcode comes from the file name')
  await page.getByLabel('Aliases').fill('journey party, zorblax dance')
  await page.getByRole('button', { name: 'Upload' }).click()
  await page.locator('.gallery img[alt=":zorblax:"]').waitFor()
  // The card is in the DOM before its image has arrived: wait for the load
  // (or its failure) rather than reading it at once.
  const imageState = await page.waitForFunction(() => {
    const img = document.querySelector('.gallery img[alt=":zorblax:"]')
    return img && img.complete && (img.naturalWidth > 0 ? 'loaded' : 'broken')
  }, null, { timeout: 20_000 }).then((h) => h.jsonValue(), () => 'still loading after 20 s')
  check(imageState === 'loaded', `the gallery shows the image (${imageState})`)
  await scan(page, 'emoji')
  await page.screenshot({ path: join(shots, 'dashboard-emoji.png'), fullPage: true })
  const found = await search(key, 'journey party')
  seen.customFirst = found.body.results[0]
  check(found.body.results[0]?.source === 'custom' && found.body.results[0]?.emoji === ':zorblax:', 'the uploaded emoji comes first in search')

  // Editing aliases from the gallery.
  await page.getByRole('button', { name: 'Edit :zorblax:' }).click()
  await page.locator('.emoji-card input[name="aliases"]').fill('journey party, zorblax dance, moonwalk')
  await page.locator('.emoji-card').getByRole('button', { name: 'Save' }).click()
  await page.getByText('journey party, zorblax dance, moonwalk').waitFor()

  // A webhook to the local receiver; the test delivery shows in its log.
  await tab(page, 'Webhooks', 'Journey app: Webhooks')
  await page.getByLabel('URL').fill(receiver + '/hook')
  await page.getByRole('button', { name: 'Add webhook' }).click()
  const secret = await page.locator('.secret-value').textContent()
  check(secret.startsWith('whsec_'), 'the signing secret is shown once')
  seen.secret = secret
  await page.getByRole('button', { name: 'Send test event' }).click()
  await page.locator('table.deliveries tr[data-status="200"]').waitFor({ timeout: 20_000 })
  seen.delivery = await page.locator('table.deliveries tbody tr').first().innerText()
  check(/webhook\.test/.test(seen.delivery) && /delivered/.test(seen.delivery), 'the log names the event and its result')
  await scan(page, 'webhooks')
  await page.screenshot({ path: join(shots, 'dashboard-webhooks.png'), fullPage: true })
  await page.getByRole('button', { name: 'Disable' }).click()
  await page.getByText(/^Disabled /).waitFor()
  await page.getByRole('button', { name: 'Enable' }).waitFor()

  // The other tabs: tenants (create, then list), imports, settings.
  await tab(page, 'Tenants', 'Journey app: Tenants')
  await page.getByLabel('External id').fill('acme')
  await page.getByRole('button', { name: 'Add tenant' }).click()
  // The new row, or the alert that says why not (a CI run once timed out here with neither in its log).
  await page.getByRole('cell', { name: 'acme' }).or(page.getByRole('alert')).first().waitFor()
  check(await page.getByRole('alert').count() === 0, 'tenant created: ' + (await page.getByRole('alert').allTextContents()).join(' '))
  await scan(page, 'tenants')
  await confirm(page, page.getByRole('row').filter({ hasText: 'acme' }).getByRole('button', { name: 'Delete' }), 'Delete')
  await page.getByText('No tenants yet.').waitFor()
  await tab(page, 'Imports', 'Journey app: Imports')
  await page.getByLabel('User token (emoji:read)').fill('xoxp-not-a-token')
  await page.getByRole('button', { name: 'Import from Slack' }).click()
  await page.locator('#f-token[aria-invalid="true"]').waitFor()
  seen.importRefused = await page.locator('[role="alert"]').first().innerText()
  check(/refused the token/.test(seen.importRefused), 'import_auth_failed in words, on the token field')
  await scan(page, 'imports')
  if (slackToken) {
    await page.getByLabel('User token (emoji:read)').fill(slackToken)
    await page.getByRole('button', { name: 'Import from Slack' }).click()
    await page.getByText('Imported 1, skipped 1 (1 exists).').waitFor()
    await tab(page, 'Custom emoji', 'Journey app: Custom emoji')
    const card = page.locator('.emoji-card').filter({ hasText: ':blobwave:' })
    check(/slack/.test(await card.innerText()), 'the imported emoji is in the gallery, from slack')
    await confirm(page, card.getByRole('button', { name: 'Delete' }), 'Delete')
    await card.waitFor({ state: 'detached' })
  }
  await tab(page, 'Settings', 'Journey app: Settings')
  await scan(page, 'settings')

  // Errors in words: a shortcode taken is shown on its field.
  await tab(page, 'Custom emoji', 'Journey app: Custom emoji')
  await page.locator('#f-file').setInputFiles(emojiPng)
  await page.getByLabel('Shortcode').fill('zorblax')
  await page.getByRole('button', { name: 'Upload' }).click()
  await page.locator('#f-shortcode[aria-invalid="true"]').waitFor()
  seen.takenMessage = await page.locator('[role="alert"]').first().innerText()
  check(/already used/.test(seen.takenMessage), 'shortcode_taken in words')
  await scan(page, 'emoji-error')

  // Invite a member; the second person accepts in a browser of their own.
  await nav(page, 'Team')
  await page.getByLabel('Role', { exact: true }).selectOption('developer')
  await page.getByRole('button', { name: 'Create invite link' }).click()
  await page.getByRole('button', { name: 'Copy invite link' }).click()
  const link = await page.evaluate(() => navigator.clipboard.readText())
  check(link.startsWith(base + '/dashboard/invite/'), `the invite link opens this dashboard: ${link}`)
  await scan(page, 'team')

  const member = await newPage()
  await member.goto(link)
  await member.getByText('Sign in to accept the team invite.').waitFor()
  await member.getByLabel('Login name').fill(`member-${run}`)
  await member.getByRole('button', { name: 'Sign in' }).click()
  await heading(member, 'Team invite')
  await scan(member, 'invite')
  await member.getByRole('button', { name: 'Accept the invite' }).click()
  await member.getByText(`You joined ${owner}'s team as developer.`).waitFor()
  await member.getByRole('link', { name: "Go to the team's apps" }).click()
  await member.getByRole('link', { name: 'Journey app' }).waitFor()

  await page.reload()
  await heading(page, 'Team')
  await page.getByRole('cell', { name: `member-${run}`, exact: true }).waitFor()

  // Dark and 360 px wide: usable, no sideways scrolling, still clean.
  const narrow = await newPage({ viewport: { width: 360, height: 740 }, colorScheme: 'dark', storageState: await page.context().storageState() })
  await narrow.goto(`${base}/dashboard/apps/${appId}/usage`)
  await heading(narrow, 'Journey app: Usage')
  await narrow.locator('.chart canvas').waitFor()
  seen.narrowScrollWidth = await narrow.evaluate(() => document.documentElement.scrollWidth)
  check(seen.narrowScrollWidth <= 360, `no sideways scrolling at 360 px (${seen.narrowScrollWidth})`)
  await scan(narrow, 'usage-dark-360')
  await narrow.screenshot({ path: join(shots, 'dashboard-360-dark.png'), fullPage: true })

  // A first visit (empty cache) to the sign-in page, five times on the
  // warm Worker: median time until the form can be used.
  const firsts = []
  for (let i = 0; i < 5; i++) {
    const fresh = await newPage()
    await fresh.goto(base + '/dashboard/', { waitUntil: 'commit' })
    await fresh.getByLabel('Login name').waitFor()
    firsts.push(await interactive(fresh))
    await fresh.context().close()
  }
  seen.timings.firstVisitMs = firsts
  seen.timings.firstVisitMedianMs = firsts.sort((a, b) => a - b)[2]

  // Delete the account with the typed confirmation.
  await nav(page, 'Account')
  await scan(page, 'account')
  const del = page.getByRole('button', { name: 'Delete my account' })
  check(await del.isDisabled(), 'deletion waits for the confirmation')
  await page.getByLabel(`Type ${owner}@dev.localhost to confirm`).fill(`${owner}@dev.localhost`)
  await del.click()
  await page.getByText('Your account and everything it owned were deleted.').waitFor()
  await heading(page, 'Sign in to the dashboard')
  await member.reload()
  await heading(member, 'Apps')
  // Count once the list has loaded (a table, or the note that there is none): before, no link is there either.
  await member.locator('table.list').or(member.getByText('No apps yet.')).first().waitFor()
  check(await member.getByRole('link', { name: 'Journey app' }).count() === 0, "the member no longer sees the deleted owner's app")

  check(seen.errors.length === 0, 'no page errors')
  check(seen.foreign.length === 0, 'no request to another origin')
  delete seen.secret
  console.log(JSON.stringify({ ok: true, secret, ...seen }))
} finally {
  await browser.close()
}
