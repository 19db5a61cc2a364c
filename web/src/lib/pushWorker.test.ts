// public/push-sw.js, run as the service worker runs it: its handlers on a `self` that records
// the notifications shown and the windows opened.
import { describe, expect, it, vi } from 'vitest';
import source from '../../public/push-sw.js?raw';

type Listener = (event: Record<string, unknown>) => void;

function worker(windows: { url: string; navigate: ReturnType<typeof vi.fn>; focus: ReturnType<typeof vi.fn> }[] = []) {
  const listeners: Record<string, Listener> = {};
  const shown: [string, NotificationOptions][] = [];
  const self = {
    location: new URL('https://learn.example.com/sw.js'),
    addEventListener: (type: string, listener: Listener) => (listeners[type] = listener),
    registration: { showNotification: vi.fn(async (title: string, options: NotificationOptions) => void shown.push([title, options])) },
  };
  const clients = { matchAll: vi.fn(async () => windows), openWindow: vi.fn(async () => null) };
  new Function('self', 'clients', source)(self, clients);
  const fire = async (type: string, event: Record<string, unknown>) => {
    let done: Promise<unknown> = Promise.resolve();
    listeners[type]?.({ ...event, waitUntil: (promise: Promise<unknown>) => (done = promise) });
    await done;
  };
  return { fire, shown, clients };
}

const pushOf = (message: unknown) => ({ data: { json: () => message, text: () => JSON.stringify(message) } });

describe('the service worker’s push handler', () => {
  it('shows the reminder the server sent, tagged so a repeat replaces it', async () => {
    const { fire, shown } = worker();

    await fire('push', pushOf({ title: '2 hours left to keep your 12-day streak', body: '', url: '/', tag: 'reminder:7' }));

    expect(shown).toEqual([
      ['2 hours left to keep your 12-day streak', expect.objectContaining({ tag: 'reminder:7', data: { url: 'https://learn.example.com/' } })],
    ]);
  });

  it('opens the app at the notification’s path on a tap, in a window already open', async () => {
    const open = { url: 'https://learn.example.com/lessons/d-model', navigate: vi.fn(async () => null), focus: vi.fn(async () => null) };
    const { fire, clients } = worker([open]);

    await fire('notificationclick', { notification: { close: vi.fn(), data: { url: 'https://learn.example.com/review' } } });

    expect(open.navigate).toHaveBeenCalledWith('https://learn.example.com/review');
    expect(open.focus).toHaveBeenCalled();
    expect(clients.openWindow).not.toHaveBeenCalled();
  });

  it('never opens another site: a foreign address opens the app’s home', async () => {
    const { fire, clients, shown } = worker();
    await fire('push', pushOf({ title: 'Hi', url: 'https://evil.example.net/phish' }));

    await fire('notificationclick', { notification: { close: vi.fn(), data: shown[0]?.[1].data } });

    expect(clients.openWindow).toHaveBeenCalledWith('https://learn.example.com/');
  });
});
