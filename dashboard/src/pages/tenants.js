// Tenants (list, page through, create, delete) and the chat-provider
// emoji imports.
import { useState } from 'preact/hooks'
import { api } from '../api.js'
import { html, useApi, Loading, ErrorNote, useForm, Field, Confirm, fmtDate } from '../ui.js'

const pageSize = 20

export function TenantsTab ({ app }) {
  const [cursors, setCursors] = useState([''])
  const cursor = cursors[cursors.length - 1]
  const list = useApi(`/api/apps/${app.id}/tenants?limit=${pageSize}${cursor ? '&cursor=' + encodeURIComponent(cursor) : ''}`)
  const form = useForm(async (f) => {
    await api('POST', `/api/apps/${app.id}/tenants`, { externalId: f.externalId.value, name: f.name.value || undefined })
    f.reset()
    list.reload()
  })
  const d = list.data
  return html`<h2>Tenants</h2>
    ${list.loading && !d && html`<${Loading} />`}
    <${ErrorNote} error=${list.error} />
    ${d && (d.tenants.length
      ? html`<table class="list">
          <thead><tr><th scope="col">External id</th><th scope="col">Name</th><th scope="col">Emoji</th><th scope="col">Created</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>${d.tenants.map((t) => html`<tr><td><code>${t.externalId}</code></td><td>${t.name || '—'}</td><td>${t.emojiCount}</td><td>${fmtDate(t.createdAt)}</td>
            <td><${Confirm} label="Delete" title=${'Delete tenant ' + t.externalId + '?'} body=${`Its ${t.emojiCount} custom emoji are deleted too.`} onConfirm=${async () => { await api('DELETE', `/api/apps/${app.id}/tenants/${t.id}`); list.reload() }} /></td></tr>`)}</tbody>
        </table>`
      : html`<p>No tenants${cursor ? ' on this page' : ' yet'}.</p>`)}
    ${d && html`<div class="row">
      <button type="button" class="secondary" disabled=${cursors.length < 2} onClick=${() => setCursors(cursors.slice(0, -1))}>Previous page</button>
      <button type="button" class="secondary" disabled=${!d.nextCursor} onClick=${() => setCursors([...cursors, d.nextCursor])}>Next page</button>
    </div>`}
    ${!list.error && html`<form class="card" onSubmit=${form.onSubmit}>
      <h2>Add a tenant</h2>
      <${ErrorNote} error=${form.error} />
      <${Field} form=${form} label="External id" name="externalId" required hint="Your own id of the workspace or customer." />
      <${Field} form=${form} label="Name (optional)" name="name" />
      <button disabled=${form.busy}>Add tenant</button>
    </form>`}`
}

function ImportResult ({ r }) {
  if (!r) return null
  const by = Object.entries(r.skippedBy || {}).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`).join(', ')
  return html`<div class="note" role="status"><p>Imported ${r.imported}, skipped ${r.skipped}${by ? ` (${by})` : ''}.
    ${r.remaining > 0 ? ` ${r.remaining} remain: import again with the same token.` : ' Nothing remains.'}</p></div>`
}

export function ImportsTab ({ app }) {
  const [slack, setSlack] = useState(null)
  const [discord, setDiscord] = useState(null)
  const sf = useForm(async (f) => setSlack(await api('POST', `/api/apps/${app.id}/emoji/import/slack`, { token: f.token.value })))
  const df = useForm(async (f) => setDiscord(await api('POST', `/api/apps/${app.id}/emoji/import/discord`, { botToken: f.botToken.value, guildId: f.guildId.value })))
  return html`<h2>Import custom emoji</h2>
    <p class="muted">At most 50 new emoji per import; tokens are used once and never stored.</p>
    <form class="card" onSubmit=${sf.onSubmit}>
      <h3>From Slack</h3>
      <${ErrorNote} error=${sf.error} />
      <${Field} form=${sf} label="User token (emoji:read)" name="token" type="password" required autocomplete="off" />
      <button disabled=${sf.busy}>Import from Slack</button>
      <${ImportResult} r=${slack} />
    </form>
    <form class="card" onSubmit=${df.onSubmit}>
      <h3>From Discord</h3>
      <${ErrorNote} error=${df.error} />
      <${Field} form=${df} label="Bot token" name="botToken" type="password" required autocomplete="off" />
      <${Field} form=${df} label="Server (guild) id" name="guildId" required inputmode="numeric" />
      <button disabled=${df.busy}>Import from Discord</button>
      <${ImportResult} r=${discord} />
    </form>`
}
