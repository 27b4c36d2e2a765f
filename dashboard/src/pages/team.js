// The team: members and roles, invites with a copyable link, and the page
// an invite link opens.
import { useState } from 'preact/hooks'
import { api } from '../api.js'
import { html, Link, useApi, Loading, ErrorNote, useForm, Field, Secret, Confirm, fmtDate } from '../ui.js'

const roles = ['admin', 'developer', 'viewer']

// inviteLink shows the link on this dashboard when the service's
// DASHBOARD_URL is elsewhere (the token is what matters).
const inviteLink = (url) => {
  const token = url.slice(url.lastIndexOf('/') + 1)
  return url.startsWith(location.origin + '/dashboard/') ? url : `${location.origin}/dashboard/invite/${token}`
}

export function TeamPage ({ me }) {
  const team = useApi('/api/team')
  const [link, setLink] = useState(null)
  const form = useForm(async (f) => {
    const res = await api('POST', '/api/team/invites', { role: f.role.value, email: f.email.value || undefined })
    setLink(inviteLink(res.url))
    f.reset()
    team.reload()
  })
  const t = team.data
  const admin = t && ['owner', 'admin'].includes(t.role)
  return html`<h1 tabindex="-1">Team</h1>
    ${team.loading && !t && html`<${Loading} />`}
    <${ErrorNote} error=${team.error} />
    ${me.teams.length > 0 && html`<p class="muted">You are also in: ${me.teams.map((x) => `${x.ownerName} (${x.role})`).join(', ')}.</p>`}
    ${link && html`<${Secret} title="Invite link" value=${link}>Send it to the person you invite: it works once, for 7 days, and is shown this once.</${Secret}>`}
    ${t && html`
      <h2>Members</h2>
      <table class="list">
        <thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Joined</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
        <tbody>${t.members.map((m) => html`<${MemberRow} key=${m.id} m=${m} admin=${admin} self=${m.id === me.account.id} reload=${team.reload} />`)}</tbody>
      </table>
      <h2>Open invites</h2>
      ${t.invites.length
        ? html`<table class="list"><thead><tr><th scope="col">Role</th><th scope="col">For</th><th scope="col">Expires</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>${t.invites.map((i) => html`<tr><td>${i.role}</td><td>${i.email || 'anyone with the link'}</td><td>${fmtDate(i.expiresAt)}</td>
            <td>${admin && html`<${Confirm} label="Withdraw" title="Withdraw this invite?" body="The link stops working." onConfirm=${async () => { await api('DELETE', `/api/team/invites/${i.id}`); team.reload() }} />`}</td></tr>`)}</tbody></table>`
        : html`<p class="muted">No open invites.</p>`}
      ${admin && html`<form class="card" onSubmit=${form.onSubmit}>
        <h2>Invite someone</h2>
        <${ErrorNote} error=${form.error} />
        <${Field} form=${form} label="Role" name="role"><select ...${form.fieldProps('role', 'f-role')}>${roles.map((r) => html`<option value=${r} selected=${r === 'developer'}>${r}</option>`)}</select></${Field}>
        <${Field} form=${form} label="Email (optional)" name="email" type="email" hint="With an email, only that person can accept." />
        <button disabled=${form.busy}>Create invite link</button>
      </form>`}`}`
}

function MemberRow ({ m, admin, self, reload }) {
  const [error, setError] = useState(null)
  const change = async (e) => {
    setError(null)
    try { await api('PATCH', `/api/team/members/${m.id}`, { role: e.currentTarget.value }); reload() } catch (err) { setError(err) }
  }
  const owner = m.role === 'owner'
  return html`<tr>
    <td>${m.name}</td><td>${m.email}</td>
    <td>${admin && !owner
      ? html`<label class="sr-only" for=${'role-' + m.id}>Role of ${m.name}</label><select id=${'role-' + m.id} value=${m.role} onChange=${change}>${roles.map((r) => html`<option value=${r}>${r}</option>`)}</select>`
      : m.role}<${ErrorNote} error=${error} /></td>
    <td>${fmtDate(m.joinedAt)}</td>
    <td>${!owner && (admin || self) && html`<${Confirm} label=${self ? 'Leave' : 'Remove'} title=${self ? 'Leave this team?' : `Remove ${m.name}?`} body="Access to the team's apps ends at once." onConfirm=${async () => { await api('DELETE', `/api/team/members/${m.id}`); reload() }} />`}</td>
  </tr>`
}

export function InvitePage ({ token, onJoined }) {
  const [team, setTeam] = useState(null)
  const form = useForm(async () => {
    const res = await api('POST', `/api/invites/${encodeURIComponent(token)}/accept`)
    setTeam(res.team)
    onJoined()
  })
  return html`<h1 tabindex="-1">Team invite</h1>
    ${team
      ? html`<div class="note" role="status"><p>You joined ${team.ownerName}'s team as ${team.role}.</p></div>
          <p><${Link} to="/dashboard/">Go to the team's apps</${Link}></p>`
      : html`<form class="card" onSubmit=${form.onSubmit}>
          <p>Someone invited you to their team on the emoji search dashboard.</p>
          <${ErrorNote} error=${form.error} />
          <button disabled=${form.busy}>Accept the invite</button>
        </form>`}`
}
