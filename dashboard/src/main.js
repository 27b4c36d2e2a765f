// The dashboard web app: sign-in, the page shell and the router of the
// paths under /dashboard/ (the Worker answers deep links with this page).
import { render } from 'preact'
import { useState, useEffect } from 'preact/hooks'
import { api } from './api.js'
import { startAuth, devSignIn, signOut } from './auth.js'
import { html, Link, navigate, ErrorNote, useForm, Field } from './ui.js'
import { AppsPage, AppPage } from './pages/apps.js'
import { TeamPage, InvitePage } from './pages/team.js'
import { BillingPage } from './pages/billing.js'
import { AccountPage } from './pages/account.js'
import { route } from './route.js'

function SignIn ({ auth, onSignedIn, note }) {
  const form = useForm(async (f) => {
    await devSignIn(f.login.value)
    onSignedIn()
  })
  useEffect(() => {
    const el = document.getElementById('clerk-sign-in')
    if (auth.clerk && el) auth.clerk.mountSignIn(el, { forceRedirectUrl: location.href })
  }, [])
  return html`<main id="main" class="signin">
    <h1 tabindex="-1">Sign in to the dashboard</h1>
    ${note && html`<p class="note">${note}</p>`}
    ${auth.error && html`<div class="note error" role="alert"><p>${auth.error}</p></div>`}
    ${auth.clerk && html`<div id="clerk-sign-in"></div>`}
    ${auth.dev && html`<form onSubmit=${form.onSubmit} class="card">
      <h2>Development sign-in</h2>
      <p class="muted">Local development only: signs in as <code>NAME@dev.localhost</code>.</p>
      <${ErrorNote} error=${form.error} />
      <${Field} form=${form} label="Login name" name="login" required autocomplete="username" pattern="[A-Za-z0-9][A-Za-z0-9._-]{0,63}" />
      <button disabled=${form.busy}>Sign in</button>
    </form>`}
    ${!auth.clerk && !auth.dev && !auth.error && html`<p class="note">Sign-in is not configured on this service (CLERK_PUBLISHABLE_KEY).</p>`}
  </main>`
}

const titles = { apps: 'Apps', app: 'App', team: 'Team', billing: 'Billing', account: 'Account', invite: 'Invite', notfound: 'Not found' }

function App ({ auth, first }) {
  const [path, setPath] = useState(location.pathname)
  const [me, setMe] = useState(undefined)
  const [error, setError] = useState(null)
  const [farewell, setFarewell] = useState('')
  const loadMe = (p = api('GET', '/api/me')) => p.then((m) => { setMe(m); setError(null) }, (e) => {
    if (e.status === 401) setMe(null)
    else setError(e)
  })
  useEffect(() => {
    loadMe(first || undefined)
    const onPop = () => setPath(location.pathname)
    addEventListener('popstate', onPop)
    return () => removeEventListener('popstate', onPop)
  }, [])
  const r = route(path)
  // The first page a person can use (sign-in or the signed-in page): a
  // User Timing mark, which the browser test reads as "interactive".
  useEffect(() => {
    if ((me !== undefined || error) && !performance.getEntriesByName('dashboard-interactive').length) performance.mark('dashboard-interactive')
  }, [me, error])
  useEffect(() => {
    document.title = `${titles[r.page]} · Emoji search dashboard`
    const h1 = document.querySelector('main h1')
    if (h1 && document.activeElement !== h1 && me) h1.focus()
  }, [path, !!me])

  if (me === undefined && !error) return html`<main id="main"><p role="status">Loading…</p></main>`
  if (error) return html`<main id="main"><h1>Dashboard</h1><${ErrorNote} error=${error} /></main>`
  if (!me) {
    const note = farewell || (r.page === 'invite' ? 'Sign in to accept the team invite.' : '')
    return html`<${SignIn} auth=${auth} note=${note} onSignedIn=${loadMe} />`
  }
  const out = async () => {
    await signOut(auth)
    setMe(null)
    navigate('/dashboard/')
  }
  const deleted = (msg) => { setFarewell(msg); setMe(null); navigate('/dashboard/') }
  const nav = [['Apps', '/dashboard/', ['apps', 'app']], ['Team', '/dashboard/team', ['team']], ['Billing', '/dashboard/billing', ['billing']], ['Account', '/dashboard/account', ['account']]]
  let page
  switch (r.page) {
    case 'apps': page = html`<${AppsPage} me=${me} />`; break
    case 'app': page = html`<${AppPage} id=${r.id} tab=${r.tab} me=${me} />`; break
    case 'team': page = html`<${TeamPage} me=${me} />`; break
    case 'billing': page = html`<${BillingPage} me=${me} dev=${auth.dev} onChange=${loadMe} />`; break
    case 'account': page = html`<${AccountPage} me=${me} auth=${auth} onDeleted=${deleted} />`; break
    case 'invite': page = html`<${InvitePage} token=${r.token} onJoined=${loadMe} />`; break
    default: page = html`<h1 tabindex="-1">Page not found</h1><p><${Link} to="/dashboard/">Back to your apps</${Link}></p>`
  }
  return html`
    <a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <${Link} to="/dashboard/" class="brand">😀 Emoji search</${Link}>
      <nav aria-label="Main">
        <ul>${nav.map(([label, to, pages]) => html`<li><${Link} to=${to} aria-current=${pages.includes(r.page) ? 'page' : undefined}>${label}</${Link}></li>`)}</ul>
      </nav>
      <div class="who">
        <span class="muted">${me.account.name || me.account.email}</span>
        <button type="button" class="secondary" onClick=${out}>Sign out</button>
      </div>
    </header>
    <main id="main" tabindex="-1">${page}</main>`
}

// boot asks for the settings and the signed-in account at once (one round
// trip less before the first page); with the identity provider the account
// is asked again once its SDK holds the session token.
async function boot () {
  const early = api('GET', '/api/me')
  early.catch(() => {})
  let settings = { environment: 'production', clerkPublishableKey: '' }
  try {
    const res = await fetch('/dashboard/config.json')
    if (res.ok) settings = await res.json()
  } catch {}
  const auth = await startAuth(settings)
  const root = document.getElementById('app')
  root.textContent = ''
  render(html`<${App} auth=${auth} first=${auth.clerk ? null : early} /><div id="announcer" class="sr-only" aria-live="polite"></div>`, root)
}

boot()
