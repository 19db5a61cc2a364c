// Web Push on this device for the daily reminders (notifications/push.py on the server): the
// browser's permission, its PushManager subscription with the server's VAPID key, and the
// server's copy of it (PUT/DELETE /api/v1/me/push-subscription).
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '@/lib/api';

export type PushState =
  /** The browser has no Web Push, or the app's service worker is not installed (a dev build). */
  | 'unsupported'
  /** The server sends no pushes (no VAPID key). */
  | 'off-server'
  /** The learner blocked notifications for this site: only the browser's settings undo it. */
  | 'blocked'
  | 'off'
  | 'on';

export interface PushStatus {
  state: PushState;
  publicKey: string | null;
  registration: ServiceWorkerRegistration | null;
  subscription: PushSubscription | null;
}

const pushKey = ['push', 'device'] as const;

function supported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

async function readStatus(): Promise<PushStatus> {
  const none = { publicKey: null, registration: null, subscription: null };
  if (!supported()) return { state: 'unsupported', ...none };
  const { public_key: publicKey } = await data(api.GET('/api/v1/push/key'));
  if (!publicKey) return { state: 'off-server', ...none };
  // Only an installed worker can show a push; `ready` would wait forever without one.
  const registration = (await navigator.serviceWorker.getRegistration()) ?? null;
  if (!registration) return { state: 'unsupported', ...none, publicKey };
  const subscription = await registration.pushManager.getSubscription();
  const state: PushState = Notification.permission === 'denied' ? 'blocked' : subscription ? 'on' : 'off';
  return { state, publicKey, registration, subscription };
}

export const pushQuery = () => queryOptions({ queryKey: pushKey, queryFn: readStatus, staleTime: Infinity });

export function usePushStatus() {
  return useQuery(pushQuery());
}

/** base64url (the server's key) to the bytes PushManager.subscribe takes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export class PushBlocked extends Error {
  constructor() {
    super('Notifications are blocked for this site. Allow them in the browser’s site settings, then try again.');
  }
}

async function turnOn(status: PushStatus): Promise<void> {
  if (!status.registration || !status.publicKey) return;
  // Asked on the learner's click: browsers refuse a prompt nobody asked for.
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushBlocked();
  const subscription = await status.registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(status.publicKey),
  });
  const json = subscription.toJSON();
  await data(
    api.PUT('/api/v1/me/push-subscription', {
      body: { endpoint: subscription.endpoint, keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' } },
    }),
  );
}

async function turnOff(status: PushStatus): Promise<void> {
  const subscription = status.subscription;
  if (!subscription) return;
  // The server forgets it first: a device the browser unsubscribed but the server kept would
  // only cost failed pushes, the reverse would keep showing reminders the learner turned off.
  await data(api.DELETE('/api/v1/me/push-subscription', { params: { query: { endpoint: subscription.endpoint } } }));
  await subscription.unsubscribe();
}

export function useSetPush() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ on, status }: { on: boolean; status: PushStatus }) => (on ? turnOn(status) : turnOff(status)),
    onSettled: () => client.invalidateQueries({ queryKey: pushKey }),
  });
}
