// The code a business pastes into its site: the widget loader (business-wide or for one group), and
// the identity-verification example (sign the user id on the server, pass it to TitanChat).

export type TSnippetTarget = { origin: string; businessCode: string; groupSlug?: string | null };

/** Quotes an attribute value: codes and slugs are plain, but a snippet must never break out. */
function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export function embedSnippet({ origin, businessCode, groupSlug }: TSnippetTarget): string {
  const group = groupSlug ? ` data-group="${attribute(groupSlug)}"` : '';
  return `<script async src="${attribute(origin)}/widget.js" data-business="${attribute(businessCode)}"${group}></script>`;
}

/** Node.js: user_hash = HMAC-SHA256(user_id) as hex, under the business's identity secret. */
export const IDENTITY_SERVER_SNIPPET = `import { createHmac } from 'node:crypto';

// Keep the identity secret in your server's environment, never in the page.
const userHash = createHmac('sha256', process.env.TITAN_IDENTITY_SECRET)
  .update(String(user.id))
  .digest('hex');`;

/** The loader is async: the stub queues the call until it has loaded. */
export const IDENTITY_HOST_SNIPPET = `<script>
  window.TitanChat = window.TitanChat || function () {
    (window.TitanChat.q = window.TitanChat.q || []).push(arguments);
  };
  TitanChat('identify', {
    user_id: 'USER_ID',
    user_hash: 'USER_HASH', // from your server, see above
    name: 'USER_NAME',
    email: 'USER_EMAIL',
  });
</script>`;
