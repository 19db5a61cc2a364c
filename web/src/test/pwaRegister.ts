// Stands in for vite-plugin-pwa's `virtual:pwa-register` (vite.config.ts's test alias): the
// module exists only in a build, and tests never register a service worker.
export function registerSW(): (reloadPage?: boolean) => Promise<void> {
  return () => Promise.resolve();
}
