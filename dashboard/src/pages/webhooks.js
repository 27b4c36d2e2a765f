// Webhooks: creation (the signing secret shown once), a test event, the
// delivery log with status codes and attempts, disable and delete.
import { useState } from 'preact/hooks'
import { api } from '../api.js'
import { html, useApi, Loading, ErrorNote, useForm, Field, Secret, Confirm, fmtTime, announce } from '../ui.js'

const eventTypes = ['tenant.created', 'tenant.deleted', 'custom_emoji.created', 'custom_emoji.deleted', 'usage.threshold']

export function WebhooksTab ({ app }) {
  const list = useApi(`/api/apps/${app.id}/webhooks`)
  const [secret, setSecret] = useState(null)
  const form = useForm(async (f) => {
    const events = eventTypes.filter((t) => f.elements['ev-' + t].checked)
    const res = await api('POST', `/api/apps/${app.id}/webhooks`, { url: f.url.value, events: events.length ? events : undefined })
    setSecret(res.secret)
    f.reset()
    list.reload()
  })
  return html`
    ${secret && html`<${Secret} title="Signing secret" value=${secret}>Copy it now: it is shown this once. Check every delivery's Service-Signature with it.</${Secret}>`}
    <h2>Webhooks</h2>
    ${list.loading && !list.data && html`<${Loading} />`}
    <${ErrorNote} error=${list.error} />
    ${list.data && (list.data.webhooks.length
      ? list.data.webhooks.map((w) => html`<${Hook} key=${w.id} w=${w} reload=${list.reload} />`)
      : html`<p>No webhooks yet.</p>`)}
    ${!list.error && html`<form class="card" onSubmit=${form.onSubmit}>
      <h2>Add a webhook</h2>
      <${ErrorNote} error=${form.error} />
      <${Field} form=${form} label="URL" name="url" type="url" required placeholder="https://example.com/hooks/emoji" hint="https only, on a public host." />
      <fieldset><legend>Events (none checked: all)</legend>
        ${eventTypes.map((t) => html`<label class="check"><input type="checkbox" name=${'ev-' + t} /> ${t}</label>`)}
      </fieldset>
      <button disabled=${form.busy}>Add webhook</button>
    </form>`}`
}

function Hook ({ w, reload }) {
  const log = useApi(`/api/webhooks/${w.id}/deliveries`)
  const [error, setError] = useState(null)
  const act = (fn) => async () => {
    setError(null)
    try { await fn() } catch (e) { setError(e) }
  }
  const test = act(async () => {
    const res = await api('POST', `/api/webhooks/${w.id}/test`)
    announce(`Test event sent: ${res.delivery.ok ? 'delivered' : 'failed'}, status ${res.delivery.status ?? 'none'}`)
    log.reload()
    reload()
  })
  const toggle = act(async () => { await api('PATCH', `/api/webhooks/${w.id}`, { enabled: !w.enabled }); reload() })
  return html`<article class="card hook" data-webhook=${w.id}>
    <h3><code>${w.url}</code></h3>
    <p class="muted">${w.enabled ? 'Enabled' : 'Disabled ' + fmtTime(w.disabledAt)} · events: ${w.events.join(', ')}</p>
    <${ErrorNote} error=${error} />
    <div class="row">
      <button type="button" onClick=${test}>Send test event</button>
      <button type="button" class="secondary" onClick=${toggle}>${w.enabled ? 'Disable' : 'Enable'}</button>
      <${Confirm} label="Delete" title=${'Delete the webhook to ' + w.url + '?'} body="Its delivery log is deleted and pending retries stop." onConfirm=${async () => { await api('DELETE', `/api/webhooks/${w.id}`); reload() }} />
    </div>
    <h4>Delivery log</h4>
    ${log.error ? html`<${ErrorNote} error=${log.error} />` : log.data && (log.data.deliveries.length
      ? html`<table class="list deliveries">
          <thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">Attempt</th><th scope="col">Status</th><th scope="col">Result</th><th scope="col">Duration</th></tr></thead>
          <tbody>${log.data.deliveries.map((d) => html`<tr data-status=${d.status ?? ''}>
            <td>${fmtTime(d.createdAt)}</td><td>${d.event}</td><td>${d.attempt} of 3</td>
            <td>${d.status ?? 'no answer'}</td><td class=${d.ok ? 'ok' : 'bad'}>${d.ok ? 'delivered' : 'failed'}</td><td>${d.durationMs} ms</td></tr>`)}</tbody>
        </table>`
      : html`<p class="muted">No deliveries yet.</p>`)}
    <button type="button" class="secondary" onClick=${log.reload}>Refresh log</button>
  </article>`
}
