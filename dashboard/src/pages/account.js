// The account: profile and deletion with a typed confirmation.
import { useState } from 'preact/hooks'
import { api } from '../api.js'
import { html, ErrorNote, useForm, Field } from '../ui.js'
import { planName } from '../messages.js'

const phrase = 'delete my account'

export function AccountPage ({ me, auth, onDeleted }) {
  const a = me.account
  const expected = a.email || phrase
  const [typed, setTyped] = useState('')
  const form = useForm(async () => {
    const res = await api('DELETE', '/api/me', { confirm: typed })
    if (!res.idpUserDeleted && auth.clerk?.user) await auth.clerk.user.delete()
    if (auth.dev) await api('POST', '/api/auth/logout').catch(() => {})
    onDeleted('Your account and everything it owned were deleted.')
  })
  const matches = typed.trim().toLowerCase() === expected.toLowerCase()
  return html`<h1 tabindex="-1">Account</h1>
    <dl class="facts">
      <dt>Name</dt><dd>${a.name || '—'}</dd>
      <dt>Email</dt><dd>${a.email || '—'}</dd>
      <dt>Plan</dt><dd>${planName(me.plan)}</dd>
      <dt>Apps</dt><dd>${me.appCount}</dd>
    </dl>
    <form class="card danger-zone" onSubmit=${form.onSubmit}>
      <h2>Delete the account</h2>
      <p>This deletes your apps, keys, usage, analytics, custom emoji, tenants, webhooks and team at once. It cannot be undone.</p>
      <${ErrorNote} error=${form.error} />
      <${Field} form=${form} label=${`Type ${expected} to confirm`} name="confirm" value=${typed} onInput=${(e) => setTyped(e.currentTarget.value)} autocomplete="off" />
      <button class="danger" disabled=${form.busy || !matches}>Delete my account</button>
    </form>`
}
