// The app's side of working offline. The service worker (vite.config.ts) keeps the reads it
// sees in two caches; this module adds what it cannot see, empties the personal one on
// sign-out, and tells the pages whether the network is there.
import { onlineManager } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

/** Public reads (lessons, quests, the level curve): the same for anyone on this device. */
export const API_CACHE = 'lp-api';
/** The signed-in learner's own reads the offline app needs (session, header): gone on sign-out. */
export const PERSONAL_CACHE = 'lp-personal';

/** Cache Storage, or null where there is none (jsdom, a page over plain http off localhost). */
function cacheStorage(): CacheStorage | null {
  return typeof caches === 'undefined' ? null : caches;
}

/** Bumped by each sign-out: a read begun before it is not kept after it. */
let generation = 0;

/**
 * Keeps an API read for offline use as the service worker would have: `url` is the read's path
 * (`/api/v1/lessons/<slug>/`). For the data the worker never saw go by: the lesson embedded in
 * the first HTML answer, and the reads of the first visit, made before the worker controlled
 * the page. Never throws: an offline copy is a nicety (a full disk, a private window).
 */
export async function rememberForOffline(url: string, data: unknown, cacheName: string = API_CACHE): Promise<void> {
  const storage = cacheStorage();
  if (!storage) return;
  try {
    const cache = await storage.open(cacheName);
    await cache.put(url, new Response(JSON.stringify(data), { headers: { 'Content-Type': 'application/json' } }));
  } catch {
    // Nothing kept; the page still works online.
  }
}

/** Where an API read's offline copy lives: its path and its cache. */
export type OfflineCopy = { url: string; cacheName: string };

declare module '@tanstack/react-query' {
  interface Register {
    // A query kept for offline use says where (offlineRead); app/initialData.ts reads it.
    queryMeta: { offline?: OfflineCopy };
  }
}

/**
 * The `queryFn` of a read kept for offline use in `cacheName` (keptForOffline), and its `meta`
 * saying where: the one place each read's offline address is written.
 */
export function offlineRead<T>(url: string, read: (url: string) => Promise<T>, cacheName: string = API_CACHE) {
  return { queryFn: () => keptForOffline(url, read, cacheName), meta: { offline: { url, cacheName } } };
}

/** An API read that is also kept for offline use (see rememberForOffline) in `cacheName`. */
export async function keptForOffline<T>(url: string, read: (url: string) => Promise<T>, cacheName: string = API_CACHE): Promise<T> {
  const started = generation;
  const data = await read(url);
  if (started === generation) void rememberForOffline(url, data, cacheName);
  return data;
}

/** Whether a kept lesson is a draft (only staff are answered one), or cannot be read. */
async function isDraft(cache: Cache, request: Request): Promise<boolean> {
  try {
    const body: unknown = await (await cache.match(request))?.json();
    return typeof body !== 'object' || body === null || (body as { published?: unknown }).published === false;
  } catch {
    return true;
  }
}

/**
 * Forgets what the signed-in learner's reads left on this device: the personal cache, the
 * quest outlines (they carry the learner's completion marks) and the draft lessons a staff
 * member read (the service worker keeps every lesson read). Published lessons stay: they are
 * public.
 */
export async function forgetPersonalCaches(): Promise<void> {
  generation += 1;
  const storage = cacheStorage();
  if (!storage) return;
  try {
    await storage.delete(PERSONAL_CACHE);
    const cache = await storage.open(API_CACHE);
    const keys = await cache.keys();
    const path = (request: Request) => new URL(request.url).pathname;
    const lessons = keys.filter((request) => path(request).startsWith('/api/v1/lessons/'));
    const drafts = (await Promise.all(lessons.map(async (request) => ((await isDraft(cache, request)) ? [request] : [])))).flat();
    const outlines = keys.filter((request) => path(request).startsWith('/api/v1/quests/'));
    await Promise.all([...outlines, ...drafts].map((request) => cache.delete(request)));
  } catch {
    // Best effort, as above.
  }
}

/** TanStack Query listens for the browser's online/offline events; it starts from the browser's state. */
export function followNetworkState(): void {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) onlineManager.setOnline(false);
}

const onlineSnapshot = () => onlineManager.isOnline();

/** Whether the network is there, re-rendering when it comes or goes. */
export function useOnline(): boolean {
  return useSyncExternalStore((listener) => onlineManager.subscribe(listener), onlineSnapshot, onlineSnapshot);
}
