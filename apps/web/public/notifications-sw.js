/* global self */
// Titan's service worker for Web Push (features/notifications): shows a notification for each push
// while no Titan tab is visible (an open, visible tab shows it in the bell and plays its sound
// instead), and opens or focuses the conversation when the notification is clicked. The payload is
// the server's TPushPayload, decrypted by the browser (RFC 8291).
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

function conversationUrl(data) {
  return data && data.conversation_id ? `/messages?conversation=${data.conversation_id}` : '/messages';
}

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: event.data ? event.data.text() : 'Titan' };
  }
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      for (const client of windows) client.postMessage({ type: 'titan-push', notification: data });
      if (windows.some((client) => client.visibilityState === 'visible')) return;
      await self.registration.showNotification(data.title || 'Titan', {
        body: data.body || '',
        tag: `titan-notification-${data.id ?? Date.now()}`,
        data: { url: conversationUrl(data), id: data.id ?? null },
      });
    })(),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || '/messages', self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        await open.focus();
        if ('navigate' in open) await open.navigate(url);
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
