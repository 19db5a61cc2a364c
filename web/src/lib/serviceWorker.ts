// The service worker vite-plugin-pwa builds (vite.config.ts): registered in production builds
// only, and a new version taken on the learner's next page, never under them mid-lesson.
import type { QueryClient } from '@tanstack/react-query';
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
 * with the page's own). The first install takes control of this page at once (clientsClaim):
 * the reads on screen are then fetched again through it, so they are kept for offline use too.
 * The browser looks for a new version on every full page load; a tab kept open asks hourly.
 */
export function registerServiceWorker(client: QueryClient): void {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const container = navigator.serviceWorker;
  if (!container.controller) {
    const onFirstControl = () => {
      container.removeEventListener('controllerchange', onFirstControl);
      void client.invalidateQueries({ refetchType: 'active' });
    };
    container.addEventListener('controllerchange', onFirstControl);
  }
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
