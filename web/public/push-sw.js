// Web Push in the app's service worker (vite.config.ts imports this file into the worker
// vite-plugin-pwa builds): shows what notifications/push.py sends, and opens the app on a tap.
// A message is {title, body, url, tag}; the url is a path of this app, never another site's.

/* global self, clients */
const appUrl = (path) => {
  const url = new URL(typeof path === 'string' ? path : '/', self.location.origin);
  return url.origin === self.location.origin ? url.href : new URL('/', self.location.origin).href;
};

self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(
    self.registration.showNotification(message.title || 'Learning Platform', {
      body: message.body || '',
      // One notification per reminder: a repeat replaces it rather than stacking.
      tag: message.tag || undefined,
      icon: '/icons/icon-192.png',
      data: { url: appUrl(message.url) },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = appUrl(event.notification.data && event.notification.data.url);
  event.waitUntil(
    clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) return open.navigate(url).then((client) => (client || open).focus());
      return clients.openWindow(url);
    }),
  );
});
