// Apps: the list and creation; one app's tabs: keys, usage, analytics,
// custom emoji, tenants, webhooks, imports and settings.
import { useState } from 'preact/hooks'
import { api } from '../api.js'
import { html, Link, navigate, useApi, Loading, ErrorNote, useForm, Field, Secret, Confirm, fmtDate, fmtNum, announce } from '../ui.js'
import { DailyChart } from '../chart.js'
import { planName } from '../messages.js'
import { EmojiTab } from './emoji.js'
import { WebhooksTab } from './webhooks.js'
import { TenantsTab, ImportsTab } from './tenants.js'

export function AppsPage () {
  const apps = useApi('/api/apps')
  const form = useForm(async (f) => {
    const res = await api('POST', '/api/apps', { name: f.name.value, environment: f.environment.value })
    announce(`App ${res.app.name} created`)
    navigate(`/dashboard/apps/${res.app.id}/keys`)
  })
  return html`<h1 tabindex="-1">Apps</h1>
    ${apps.loading && html`<${Loading} />`}
    <${ErrorNote} error=${apps.error} />
    ${apps.data && (apps.data.apps.length
      ? html`<table class="list">
          <thead><tr><th scope="col">Name</th><th scope="col">Environment</th><th scope="col">Owner</th><th scope="col">Your role</th><th scope="col">Created</th></tr></thead>
          <tbody>${apps.data.apps.map((a) => html`<tr>
            <td><${Link} to=${`/dashboard/apps/${a.id}/keys`}>${a.name}</${Link}></td>
            <td>${a.environment}</td><td>${a.ownerName}</td><td>${a.role}</td><td>${fmtDate(a.createdAt)}</td></tr>`)}</tbody>
        </table>`
      : html`<p>No apps yet. Create one to get API keys.</p>`)}
    <form class="card" onSubmit=${form.onSubmit}>
      <h2>Create an app</h2>
      <${ErrorNote} error=${form.error} />
      <${Field} form=${form} label="Name" name="name" required maxlength="64" />
      <${Field} form=${form} label="Environment" name="environment" hint="Development apps may have publishable keys without allowed origins.">
        <select ...${form.fieldProps('environment', 'f-environment')}><option value="production">Production</option><option value="development">Development</option></select>
      </${Field}>
      <button disabled=${form.busy}>Create app</button>
    </form>`
}

const tabs = [['keys', 'Keys'], ['usage', 'Usage'], ['analytics', 'Analytics'], ['emoji', 'Custom emoji'], ['tenants', 'Tenants'], ['webhooks', 'Webhooks'], ['imports', 'Imports'], ['settings', 'Settings']]

export function AppPage ({ id, tab }) {
  const app = useApi(`/api/apps/${id}`)
  if (app.loading && !app.data) return html`<h1 tabindex="-1">App</h1><${Loading} />`
  if (app.error) return html`<h1 tabindex="-1">App</h1><${ErrorNote} error=${app.error} />`
  const a = app.data.app
  const label = (tabs.find(([t]) => t === tab) || [])[1]
  let body
  switch (tab) {
    case 'keys': body = html`<${KeysTab} app=${a} keys=${app.data.keys} reload=${app.reload} />`; break
    case 'usage': body = html`<${UsageTab} app=${a} />`; break
    case 'analytics': body = html`<${AnalyticsTab} app=${a} />`; break
    case 'emoji': body = html`<${EmojiTab} app=${a} />`; break
    case 'tenants': body = html`<${TenantsTab} app=${a} />`; break
    case 'webhooks': body = html`<${WebhooksTab} app=${a} />`; break
    case 'imports': body = html`<${ImportsTab} app=${a} />`; break
    case 'settings': body = html`<${SettingsTab} app=${a} reload=${app.reload} />`; break
    default: body = html`<p>No such tab.</p>`
  }
  return html`<p class="crumbs"><${Link} to="/dashboard/">Apps</${Link}> / ${a.name}</p>
    <h1 tabindex="-1">${a.name}: ${label || 'App'}</h1>
    <p class="muted">${a.environment} · ${a.ownerName}'s app · your role: ${a.role}</p>
    <nav aria-label="App sections" class="tabs"><ul>
      ${tabs.map(([t, l]) => html`<li><${Link} to=${`/dashboard/apps/${a.id}/${t}`} aria-current=${t === tab ? 'page' : undefined}>${l}</${Link}></li>`)}
    </ul></nav>
    <section class="tab-body">${body}</section>`
}

const origins = (text) => text.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean)

function KeysTab ({ app, keys, reload }) {
  const [created, setCreated] = useState(null)
  const form = useForm(async (f) => {
    const kind = f.kind.value
    const body = { kind }
    if (kind === 'publishable') body.allowedOrigins = origins(f.allowedOrigins.value)
    const res = await api('POST', `/api/apps/${app.id}/keys`, body)
    setCreated(res)
    f.reset()
    reload()
  })
  const [kind, setKind] = useState('publishable')
  return html`
    ${created && html`<${Secret} title="Full key" value=${created.fullKey}>Copy it now: it is shown this once. Revoke the key if it leaks.</${Secret}>`}
    <h2>Keys</h2>
    ${keys.length
      ? html`<table class="list">
        <thead><tr><th scope="col">Key</th><th scope="col">Kind</th><th scope="col">Allowed origins</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
        <tbody>${keys.map((k) => html`<${KeyRow} key=${k.id} k=${k} reload=${reload} />`)}</tbody></table>`
      : html`<p>No keys yet.</p>`}
    <form class="card" onSubmit=${form.onSubmit}>
      <h2>Create a key</h2>
      <${ErrorNote} error=${form.error} />
      <${Field} form=${form} label="Kind" name="kind" hint="Publishable keys go in web pages and check the Origin; secret keys stay on servers.">
        <select ...${form.fieldProps('kind', 'f-kind')} value=${kind} onChange=${(e) => setKind(e.currentTarget.value)}><option value="publishable">Publishable</option><option value="secret">Secret</option></select>
      </${Field}>
      ${kind === 'publishable' && html`<${Field} form=${form} label="Allowed origins" name="allowedOrigins" hint="One origin per line, e.g. https://example.com">
        <textarea rows="3" ...${form.fieldProps('allowedOrigins', 'f-allowedOrigins')}></textarea></${Field}>`}
      <button disabled=${form.busy}>Create key</button>
    </form>`
}

function KeyRow ({ k, reload }) {
  const [editing, setEditing] = useState(false)
  const form = useForm(async (f) => {
    await api('PATCH', `/api/keys/${k.id}`, { allowedOrigins: origins(f.allowedOrigins.value) })
    setEditing(false)
    reload()
  })
  const active = k.status === 'active'
  return html`<tr>
    <td><code>${k.hint}</code></td><td>${k.kind}</td>
    <td>${editing
      ? html`<form onSubmit=${form.onSubmit}><${ErrorNote} error=${form.error} />
          <${Field} form=${form} label=${'Origins of ' + k.hint} name="allowedOrigins" id=${'o-' + k.id}>
            <textarea rows="3" ...${form.fieldProps('allowedOrigins', 'o-' + k.id)}>${k.allowedOrigins.join('\n')}</textarea></${Field}>
          <button disabled=${form.busy}>Save</button> <button type="button" class="secondary" onClick=${() => setEditing(false)}>Cancel</button></form>`
      : (k.allowedOrigins.length ? k.allowedOrigins.join(', ') : html`<span class="muted">none</span>`)}</td>
    <td>${active ? 'active' : 'revoked ' + fmtDate(k.revokedAt)}</td><td>${fmtDate(k.createdAt)}</td>
    <td class="actions">${active && html`
      ${k.kind === 'publishable' && !editing && html`<button type="button" class="secondary" onClick=${() => setEditing(true)}>Edit origins</button>`}
      <${Confirm} label="Revoke" title=${'Revoke key ' + k.hint + '?'} body="Calls with this key stop working within a minute. This cannot be undone." onConfirm=${async () => { await api('DELETE', `/api/keys/${k.id}`); reload() }} />`}</td>
  </tr>`
}

const metricNames = { semantic_calls: 'Searches with meaning and reactions', image_classifications: 'Image classifications', custom_emoji: 'Custom emoji stored' }

function Meter ({ name, m }) {
  const pct = m.percent == null ? 0 : Math.min(100, m.percent)
  return html`<div class="meter">
    <div class="meter-head"><span>${metricNames[name] || name}</span><span>${fmtNum(m.used)} of ${fmtNum(m.limit)}${m.percent != null ? ` (${m.percent} %)` : ''}</span></div>
    <div class=${'bar ' + m.status} role="meter" aria-label=${metricNames[name] || name} aria-valuemin="0" aria-valuemax="100" aria-valuenow=${pct} aria-valuetext=${`${m.used} of ${m.limit == null ? 'unlimited' : m.limit}`}><span style=${`width:${pct}%`}></span></div>
    <p class="hint">This app: ${fmtNum(m.appUsed)}${m.status === 'warning' ? ' · over 80 % of the limit' : ''}${m.status === 'over' ? ' · limit reached' : ''}</p>
  </div>`
}

const searchSeries = [{ key: 'searches', label: 'Searches' }]

function UsageTab ({ app }) {
  const u = useApi(`/api/apps/${app.id}/usage`)
  if (u.loading && !u.data) return html`<${Loading} />`
  if (u.error) return html`<${ErrorNote} error=${u.error} />`
  const d = u.data
  return html`<h2>Usage in ${d.period} (${planName(d.plan)} plan)</h2>
    <p class="muted">Limits count every app of the account; calls are counted here within a few seconds.</p>
    ${Object.entries(d.usage).map(([k, m]) => html`<${Meter} name=${k} m=${m} />`)}
    <h2>Keyed searches per day</h2>
    <${DailyChart} id="usage-chart" days=${d.days} series=${searchSeries} caption=${'This month'} />
    <button type="button" class="secondary" onClick=${u.reload}>Refresh</button>`
}

const analyticsSeries = [{ key: 'searches', label: 'Searches' }, { key: 'misses', label: 'Misses' }]

function AnalyticsTab ({ app }) {
  const [days, setDays] = useState(30)
  const r = useApi(`/api/apps/${app.id}/analytics?days=${days}`)
  return html`<div role="group" aria-label="Window" class="row">
      ${[7, 30, 90].map((n) => html`<button type="button" class=${n === days ? '' : 'secondary'} aria-pressed=${n === days ? 'true' : 'false'} onClick=${() => setDays(n)}>${n} days</button>`)}
    </div>
    ${r.loading && !r.data && html`<${Loading} />`}
    <${ErrorNote} error=${r.error} />
    ${r.data && !r.error && html`
      <${DailyChart} id="analytics-chart" days=${r.data.days} series=${analyticsSeries} caption=${`Last ${r.data.days.length} days`} />
      <div class="cols">
        <section><h2>Top queries</h2><${QueryTable} rows=${r.data.topQueries} k="searches" label="Searches" /></section>
        <section><h2>Top misses</h2><${QueryTable} rows=${r.data.topMisses} k="misses" label="Misses" /></section>
        <section><h2>Locales</h2><${LocaleTable} rows=${r.data.locales || []} /></section>
      </div>
      <p class="hint">A query is named once the app saw it at least 5 times in the window.</p>`}`
}

function QueryTable ({ rows, k, label }) {
  if (!rows.length) return html`<p class="muted">None yet.</p>`
  return html`<table class="list"><thead><tr><th scope="col">Query</th><th scope="col">${label}</th></tr></thead>
    <tbody>${rows.map((q) => html`<tr><td>${q.query}</td><td>${q[k]}</td></tr>`)}</tbody></table>`
}

const localeNames = new Intl.DisplayNames(['en'], { type: 'language' })
const localeName = (l) => { try { return `${localeNames.of(l)} (${l})` } catch { return l } }

function LocaleTable ({ rows }) {
  if (!rows.length) return html`<p class="muted">None yet.</p>`
  const total = rows.reduce((n, r) => n + r.searches, 0)
  return html`<table class="list"><thead><tr><th scope="col">Locale</th><th scope="col">Searches</th><th scope="col">Share</th></tr></thead>
    <tbody>${rows.map((r) => html`<tr><td>${localeName(r.locale)}</td><td>${r.searches}</td><td>${Math.round(r.searches * 100 / total)} %</td></tr>`)}</tbody></table>`
}

function SettingsTab ({ app, reload }) {
  const form = useForm(async (f) => {
    await api('PATCH', `/api/apps/${app.id}`, { name: f.name.value, emojiSet: f.emojiSet.value })
    announce('Saved')
    reload()
  })
  return html`<form class="card" onSubmit=${form.onSubmit}>
    <h2>Settings</h2>
    <${ErrorNote} error=${form.error} />
    <${Field} form=${form} label="Name" name="name" value=${app.name} required maxlength="64" />
    <${Field} form=${form} label="Emoji set" name="emojiSet" hint="Sets other than native need the Solo plan.">
      <select ...${form.fieldProps('emojiSet', 'f-emojiSet')} value=${app.emojiSet}>
        ${['native', 'twemoji', 'openmoji', 'noto'].map((s) => html`<option value=${s}>${s}</option>`)}
      </select></${Field}>
    <p class="muted">Environment: ${app.environment} (chosen when the app is created).</p>
    <button disabled=${form.busy}>Save</button>
  </form>`
}
