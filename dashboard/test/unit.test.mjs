// Unit tests of the dashboard's plain modules (node --test, run by
// test.sh): the router, the words for every spec 2 error code, and the
// identity provider's script URL.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { route } from '../src/route.js'
import { messageFor } from '../src/messages.js'
import { clerkScript } from '../src/auth.js'

test('route', () => {
  const cases = [
    ['/dashboard/', { page: 'apps' }],
    ['/dashboard', { page: 'apps' }],
    ['/dashboard/apps', { page: 'apps' }],
    ['/dashboard/apps/app_1', { page: 'app', id: 'app_1', tab: 'keys' }],
    ['/dashboard/apps/app_1/webhooks/', { page: 'app', id: 'app_1', tab: 'webhooks' }],
    ['/dashboard/team', { page: 'team' }],
    ['/dashboard/billing', { page: 'billing' }],
    ['/dashboard/account', { page: 'account' }],
    ['/dashboard/invite/tok_abc', { page: 'invite', token: 'tok_abc' }],
    ['/dashboard/invite', { page: 'notfound' }],
    ['/dashboard/apps/a/b/c', { page: 'notfound' }],
    ['/dashboard/nope', { page: 'notfound' }]
  ]
  for (const [path, want] of cases) assert.deepEqual(route(path), want, path)
})

// Spec 2's error table: each code has words of its own, not the fallback.
const specCodes = ['confirmation_required', 'invalid_request', 'unsafe_svg', 'import_auth_failed', 'unauthorized',
  'plan_required', 'forbidden_role', 'plan_limit', 'invite_email_mismatch', 'email_required', 'not_found',
  'invite_not_found', 'invite_own_team', 'already_member', 'owner_immutable', 'plan_not_higher', 'tenant_exists',
  'webhook_limit', 'shortcode_taken', 'invite_used', 'invite_expired', 'image_too_large', 'unsupported_image',
  'unsupported_media_type', 'import_rate_limited', 'import_unavailable', 'storage_unavailable', 'clerk_unconfigured']

test('every spec 2 error code in words', () => {
  const fallback = messageFor('no_such_code', {}, 418)
  assert.equal(fallback, 'The request failed (HTTP 418).')
  const seen = new Set()
  for (const code of specCodes) {
    const m = messageFor(code, {}, 400)
    assert.notEqual(m, fallback, code)
    assert.ok(m.endsWith('.'), `${code}: a sentence`)
    seen.add(m)
  }
  assert.ok(seen.size >= specCodes.length - 1, 'codes have words of their own')
})

test('402 names the plan', () => {
  assert.equal(messageFor('plan_required', { plan: 'solo' }), 'This needs the Solo plan or higher.')
  assert.equal(messageFor('plan_required', { plan: 'scale' }), 'This needs the Scale plan or higher.')
})

test('invalid_request keeps the rule the service names', () => {
  assert.equal(messageFor('invalid_request', { message: 'name must be 1 to 64 characters.', field: 'name' }), 'name must be 1 to 64 characters.')
  assert.equal(messageFor('invalid_request', {}), 'Some input is not valid.')
  assert.equal(messageFor('network', {}, 0), 'The service could not be reached. Check your connection and try again.')
  assert.match(messageFor('whatever', {}, 503), /our side/)
})

test('clerkScript', () => {
  const pk = 'pk_test_' + Buffer.from('clever-cat-12.clerk.accounts.dev$').toString('base64')
  assert.equal(clerkScript(pk), 'https://clever-cat-12.clerk.accounts.dev/npm/@clerk/clerk-js@5/dist/clerk.browser.js')
  assert.throws(() => clerkScript('pk_test_' + Buffer.from('evil.com/x?$').toString('base64')), /malformed/)
  assert.throws(() => clerkScript('nonsense'), /malformed/)
})
