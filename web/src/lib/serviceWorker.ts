// The service worker vite-plugin-pwa builds (vite.config.ts): registered in production builds
// only, and a new version taken on the learner's next page, never under them mid-lesson.
import { useSyncExternalStore } from 'react';

const HOUR = 60 * 60 * 1000;

/** Takes the waiting version: the new worker takes over and the page loads again from it. */
type Apply = () => Promise<void>;

let waiting: Apply | null = null;
const listeners = new Set<() => void>();

/** Records that a new version is installed and waiting; `apply` switches to it. */
export function announceUpdate(apply: Apply | null): void {
  waiting = apply;
  listeners.forEach((listener) => listener());
}

/** Switches to the waiting version, if one is: the page reloads (the route it is on now). */
export function applyWaitingUpdate(): boolean {
  if (!waiting) return false;
  const apply = waiting;
  waiting = null;
  void apply();
  return true;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => waiting !== null;

/** Whether a new version waits for the next page. */
export function useUpdateWaiting(): boolean {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/**
 * Registers the service worker once the page has loaded (its precache download must not compete
 * with the page's own). The first install takes control of this page at once (clientsClaim).
 * The reads made before that are not fetched again through it: every read the worker keeps is
 * also kept by the app itself (keptForOffline, lib/offline.ts), so refetching them all would
 * only cost the phone a burst of work just after the page became usable. The browser looks for
 * a new version on every full page load; a tab kept open asks hourly.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const start = () =>
    void import('virtual:pwa-register').then(({ registerSW }) => {
      const update = registerSW({
        immediate: true,
        // The worker's own code reloads the page once the new version controls it.
        onNeedRefresh: () => announceUpdate(() => update(true)),
        onRegisteredSW: (_url, registration) => {
          if (registration) setInterval(() => void registration.update().catch(() => undefined), HOUR);
        },
      });
    });
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}
