// Billing: the plan, this month's usage against its limits, the waitlist
// upgrade (nothing is charged), and in local development the plan switch.
import { useState } from 'preact/hooks'
import { api } from '../api.js'
import { html, useApi, Loading, ErrorNote, useForm, Field, fmtNum, announce } from '../ui.js'
import { planName } from '../messages.js'

const order = ['free', 'solo', 'pro', 'scale']

export function BillingPage ({ me, dev, onChange }) {
  const b = useApi('/api/billing')
  const [done, setDone] = useState(null)
  const [error, setError] = useState(null)
  const upgrade = async (plan) => {
    setError(null)
    try {
      const r = await api('POST', '/api/billing/upgrade', { plan })
      setDone(r.plan)
      b.reload()
    } catch (e) { setError(e) }
  }
  const devForm = useForm(async (f) => {
    await api('POST', '/api/auth/dev/plan', { plan: f.plan.value })
    announce(`Plan set to ${planName(f.plan.value)}`)
    b.reload()
    onChange()
  })
  const d = b.data
  return html`<h1 tabindex="-1">Billing</h1>
    ${b.loading && !d && html`<${Loading} />`}
    <${ErrorNote} error=${b.error} />
    ${d && html`
      <p class="plan">Plan: <strong>${planName(d.plan)}</strong> · ${d.appCount} app${d.appCount === 1 ? '' : 's'} of ${fmtNum(d.limits.maxApps)}</p>
      <h2>Usage in ${d.period}</h2>
      <table class="list"><thead><tr><th scope="col">Metric</th><th scope="col">Used</th><th scope="col">Limit</th></tr></thead>
        <tbody>${Object.entries(d.usage).map(([k, n]) => html`<tr><td>${k.replace(/_/g, ' ')}</td><td>${fmtNum(n)}</td><td>${fmtNum(d.limits[k])}</td></tr>`)}</tbody></table>
      <h2>Upgrade</h2>
      <p class="muted">Paid plans open soon: join the waitlist and we will write when they do. Nothing is charged.</p>
      ${(done || d.waitlistPlan) && html`<div class="note" role="status"><p>You are on the waitlist for ${planName(done || d.waitlistPlan)}.</p></div>`}
      <${ErrorNote} error=${error} />
      <div class="row">${order.slice(order.indexOf(d.plan) + 1).map((p) => html`<button type="button" onClick=${() => upgrade(p)}>Join the ${planName(p)} waitlist</button>`)}</div>`}
    ${dev && html`<form class="card" onSubmit=${devForm.onSubmit}>
      <h2>Development: set the plan</h2>
      <p class="muted">Local development only (POST /api/auth/dev/plan).</p>
      <${ErrorNote} error=${devForm.error} />
      <${Field} form=${devForm} label="Plan" name="plan"><select ...${devForm.fieldProps('plan', 'f-plan')}>${order.map((p) => html`<option value=${p} selected=${p === me.plan}>${planName(p)}</option>`)}</select></${Field}>
      <button disabled=${devForm.busy}>Set plan</button>
    </form>`}`
}
