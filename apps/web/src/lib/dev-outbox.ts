// Whether this Titan keeps mail in the development outbox instead of sending it: the server says
// so in index.html (it injects the meta tag only then), so screens link to the outbox page only
// where the page can show something.
export const DEV_OUTBOX_META_NAME = 'titan-dev-outbox';

export function isDevOutboxOn(): boolean {
  return document.querySelector<HTMLMetaElement>(`meta[name="${DEV_OUTBOX_META_NAME}"]`)?.content === 'on';
}
