import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { allauthConfig, mockApi, signedInSession } from '@/test/mockApi';
import { profile, progressSummary, myLeague } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const KEY = 'BJC1jOS8jDBRNLidBNF1BiXROVwS348xbXIsxbT0n-HuAfYIjou_R7DlSEm7J61r-ODdjNQP4BOh5MHOJOwr6PU';
const ENDPOINT = 'https://push.example.com/v1/device-1';

/** A browser's push machinery: a registration whose PushManager subscribes, and a permission. */
function fakeBrowser(permission: NotificationPermission, answer: NotificationPermission = permission) {
  let current: PushSubscription | null = null;
  const subscribe = vi.fn(async () => {
    current = {
      endpoint: ENDPOINT,
      toJSON: () => ({ endpoint: ENDPOINT, keys: { p256dh: 'BPub', auth: 'secret' } }),
      unsubscribe: vi.fn(async () => {
        current = null;
        return true;
      }),
    } as unknown as PushSubscription;
    return current;
  });
  const registration = { pushManager: { getSubscription: async () => current, subscribe } };
  vi.stubGlobal('PushManager', function PushManager() {});
  vi.stubGlobal('Notification', { permission, requestPermission: vi.fn(async () => answer) });
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: { getRegistration: async () => registration } });
  return { subscribe };
}

function routes(publicKey: string | null) {
  return mockApi({
    'GET /_allauth/browser/v1/config': allauthConfig,
    'GET /_allauth/browser/v1/auth/sessions': { body: { status: 200, data: [] } },
    'GET /api/v1/session': signedInSession(),
    'GET /api/v1/me/': { body: { ...profile, reminder_time: '21:00' } },
    'GET /api/v1/me/deletion': { body: { grace_days: 7 } },
    'GET /api/v1/me/league': { body: myLeague() },
    'GET /_allauth/browser/v1/account/email': { body: { status: 200, data: [{ email: 'ada@example.com', primary: true, verified: true }] } },
    'GET /api/v1/me/progress': { body: progressSummary() },
    'GET /api/v1/achievements/': { body: { count: 10, unlocked_count: 0, results: [] } },
    'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    'GET /api/v1/push/key': { body: { public_key: publicKey } },
    'PUT /api/v1/me/push-subscription': ({ body }) => ({ status: 201, body: body as { endpoint: string; keys: { p256dh: string; auth: string } } }),
    'DELETE /api/v1/me/push-subscription': { status: 204 },
  });
}

async function deviceGroup() {
  const form = await screen.findByRole('form', { name: 'Profile' });
  return within(form).findByRole('group', { name: 'Notifications on this device' });
}

describe('Settings: the reminder on this device (Web Push)', () => {
  beforeEach(() => vi.unstubAllGlobals());
  afterEach(() => {
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, 'serviceWorker');
  });

  it('asks the browser, subscribes with the server’s key and gives the server the subscription', async () => {
    const { subscribe } = fakeBrowser('default', 'granted');
    const { calls } = routes(KEY);
    const user = userEvent.setup();
    renderApp('/settings');

    const group = await deviceGroup();
    await user.click(within(group).getByRole('button', { name: 'Notify me on this device' }));

    await within(group).findByText('This device shows the reminder as a notification.');
    const options = subscribe.mock.calls[0] as unknown as [PushSubscriptionOptionsInit];
    expect(options[0].userVisibleOnly).toBe(true);
    expect(new Uint8Array(options[0].applicationServerKey as ArrayBuffer)).toHaveLength(65);
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.body).toEqual({ endpoint: ENDPOINT, keys: { p256dh: 'BPub', auth: 'secret' } });
  });

  it('turns it off here: the server forgets the device, the browser unsubscribes', async () => {
    fakeBrowser('default', 'granted');
    const { calls } = routes(KEY);
    const user = userEvent.setup();
    renderApp('/settings');
    const group = await deviceGroup();
    await user.click(within(group).getByRole('button', { name: 'Notify me on this device' }));

    await user.click(await within(group).findByRole('button', { name: 'Turn off on this device' }));

    await within(group).findByRole('button', { name: 'Notify me on this device' });
    const remove = calls.find((call) => call.method === 'DELETE');
    expect(remove?.url).toBe(`/api/v1/me/push-subscription?endpoint=${encodeURIComponent(ENDPOINT)}`);
  });

  it('says how to allow notifications when the learner refuses the browser’s prompt', async () => {
    const { subscribe } = fakeBrowser('default', 'denied');
    const { calls } = routes(KEY);
    const user = userEvent.setup();
    renderApp('/settings');

    const group = await deviceGroup();
    await user.click(within(group).getByRole('button', { name: 'Notify me on this device' }));

    expect(await within(group).findByRole('alert')).toHaveTextContent('Notifications are blocked for this site.');
    expect(subscribe).not.toHaveBeenCalled();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('offers nothing when the server sends no pushes', async () => {
    fakeBrowser('default');
    const { calls } = routes(null);
    renderApp('/settings');
    const form = await screen.findByRole('form', { name: 'Profile' });
    await within(form).findByLabelText('Reminder time');

    await waitFor(() => expect(calls.some((call) => call.url === '/api/v1/push/key')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50)); // the answer rendered
    expect(within(form).queryByRole('group', { name: 'Notifications on this device' })).toBeNull();
  });
});
