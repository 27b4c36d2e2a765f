// Every error code of spec 2 (and the ones the service adds) in words a
// person can act on. The server's own message is shown beside these where
// it names the rule that was broken.
const planNames = { free: 'Free', solo: 'Solo', pro: 'Pro', scale: 'Scale' }
export const planName = (p) => planNames[p] || p

const messages = {
  network: 'The service could not be reached. Check your connection and try again.',
  unauthorized: 'Your session has ended. Sign in again.',
  clerk_unconfigured: 'Sign-in is not configured on this service yet. Ask its operator to set the identity provider keys.',
  email_required: 'Your sign-in has no verified email address. Verify one with the identity provider, then sign in again.',
  forbidden_role: 'Your role in this team does not allow this. Ask an owner or admin.',
  plan_limit: 'You have reached the custom emoji limit of the largest plan. Delete some emoji to add new ones.',
  not_found: 'This was not found, or you have no access to it.',
  invite_not_found: 'This invite link is unknown or was withdrawn. Ask for a new one.',
  invite_used: 'This invite link was already used. Ask for a new one.',
  invite_expired: 'This invite link is older than 7 days and has expired. Ask for a new one.',
  invite_email_mismatch: 'This invite is for another email address than the one you signed in with.',
  invite_own_team: 'This invite is for your own team: share the link with the person you invite.',
  already_member: 'You are already a member of this team.',
  owner_immutable: 'The owner of a team cannot be changed or removed.',
  plan_not_higher: 'That plan is not higher than your current plan.',
  confirmation_required: 'The confirmation does not match. Type it exactly as shown.',
  tenant_exists: 'A tenant with this external id already exists.',
  webhook_limit: 'This app already has 10 webhooks, the most it can have. Delete one first.',
  shortcode_taken: 'This shortcode is already used in this app (or tenant). Choose another.',
  image_too_large: 'The image is larger than 256 KB. Make it smaller and upload it again.',
  unsupported_image: 'The file is not a PNG, GIF, WebP or SVG image.',
  unsupported_media_type: 'The request had the wrong format. Reload the page and try again.',
  unsafe_svg: 'The SVG contains scripts, event handlers, external links or other unsafe parts. Export it as plain shapes.',
  import_auth_failed: 'The chat provider refused the token, or the bot is not in that server.',
  import_rate_limited: 'The chat provider is limiting requests. Wait a minute, then import again.',
  import_unavailable: 'The chat provider did not answer. Try again later.',
  storage_unavailable: 'Image storage is not available right now; nothing was changed. Try again.',
  invalid_request: 'Some input is not valid.',
  invalid_json: 'The request could not be read. Reload the page and try again.',
  body_too_large: 'The input is too long.',
  key_revoked: 'This key is revoked; its allowed origins cannot change.',
  rate_limited: 'Too many requests. Wait a minute and try again.',
  internal_error: 'Something went wrong on our side. Try again in a moment.'
}

// messageFor gives the words for an error answer; plan_required names the
// plan that has the feature.
export function messageFor (code, e = {}, status = 0) {
  if (code === 'plan_required') return `This needs the ${planName(e.plan || 'pro')} plan or higher.`
  if (messages[code]) {
    if ((code === 'invalid_request' || code === 'forbidden_role') && e.message) return e.message
    return messages[code]
  }
  if (e.message) return e.message
  if (status >= 500) return messages.internal_error
  return `The request failed (HTTP ${status}).`
}
