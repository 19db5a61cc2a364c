/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// The Django server the dev server forwards API, auth, static and admin requests to.
const backend = process.env.VITE_BACKEND_URL ?? 'http://127.0.0.1:8000';
const proxy = Object.fromEntries(
  ['/api', '/_allauth', '/static', '/admin'].map((prefix) => [prefix, { target: backend, changeOrigin: false }]),
);

// The service worker (docs/architecture.md, "Offline"): the app shell precached; the public
// lesson and quest reads network first into `lp-api`; the learner's own few reads the offline
// app needs into `lp-personal` (emptied on sign-out, src/lib/offline.ts); navigations always
// from the network (the server's HTML holds the lesson), the precached shell only offline.
// Workbox serialises these functions into sw.js: each must stand alone.
/** API reads from the network, else (offline, or no answer in 4 s) the copy kept in `cacheName`. */
const networkFirst = (cacheName: string, maxEntries: number, maxAgeDays: number) => ({
  handler: 'NetworkFirst' as const,
  options: {
    cacheName,
    networkTimeoutSeconds: 4,
    matchOptions: { ignoreVary: true },
    cacheableResponse: { statuses: [200] },
    expiration: { maxEntries, maxAgeSeconds: 60 * 60 * 24 * maxAgeDays },
  },
});

const pwa = VitePWA({
  registerType: 'prompt',
  // src/lib/serviceWorker.ts registers it, in production builds only.
  injectRegister: null,
  // The glob below has them already.
  includeManifestIcons: false,
  manifest: {
    name: 'Learning Platform',
    short_name: 'Learn',
    description: 'Learn how transformer language models work, one lesson at a time.',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    // styles.css's light theme: the top bar's --surface, --bg behind the splash screen.
    theme_color: '#f5f7fa',
    background_color: '#ffffff',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    // Web Push (public/push-sw.js): the daily reminder shown by the browser, the app closed.
    importScripts: ['/push-sw.js'],
    // The shell: index.html, the JS and CSS, the icons (the manifest is added by the plugin).
    globPatterns: ['**/*.{js,css,html,svg,png}'],
    cleanupOutdatedCaches: true,
    // The first install controls the page it was installed from (its later reads are kept);
    // an update waits for the learner's next page (registerType 'prompt').
    clientsClaim: true,
    skipWaiting: false,
    // No cache-first fallback for navigations: the rule below asks the network first.
    // `/` is a navigation like any other, not the precached index.html.
    navigateFallback: null,
    directoryIndex: null,
    runtimeCaching: [
      {
        urlPattern: ({ request, url }) =>
          request.mode === 'navigate' && !/^\/(api|_allauth|admin|static|healthz|readyz)(\/|$)/.test(url.pathname),
        handler: 'NetworkOnly',
        options: { precacheFallback: { fallbackURL: '/index.html' } },
      },
      {
        urlPattern: ({ url, sameOrigin }) =>
          sameOrigin && /^\/api\/v1\/((lessons|quests)\/[^/]+\/|quests\/|levels\/)$/.test(url.pathname),
        ...networkFirst('lp-api', 200, 30),
      },
      {
        urlPattern: ({ url, sameOrigin }) =>
          sameOrigin && /^\/api\/v1\/(session|me\/progress|me\/reviews|achievements\/)$/.test(url.pathname),
        ...networkFirst('lp-personal', 30, 7),
      },
    ],
  },
});

/**
 * main.tsx imports react-dom's client with import(), so that evaluating it is a task of its own
 * rather than part of the main bundle's (a phone answers a tap between the two). The page needs
 * it at once all the same: a modulepreload link has the browser fetch it beside the main bundle.
 */
const preloadReactDom: Plugin = {
  name: 'lp-preload-react-dom',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler: (_html, { bundle }) =>
      Object.values(bundle ?? {})
        .filter((chunk) => chunk.type === 'chunk' && chunk.moduleIds.some((id) => id.endsWith('/react-dom/client.js')))
        .map((chunk) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: '', href: `/${chunk.fileName}` }, injectTo: 'head' as const })),
  },
};

export default defineConfig({
  base: '/',
  plugins: process.env.VITEST ? [react()] : [react(), pwa, preloadReactDom],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: { port: Number(process.env.VITE_PORT ?? 5173), proxy },
  preview: { port: Number(process.env.VITE_PORT ?? 4173), proxy },
  build: { outDir: 'dist', assetsDir: 'assets', emptyOutDir: true, sourcemap: false, modulePreload: { polyfill: false } },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.mjs'],
    // The plugin's virtual module exists only in a build: tests get a stand-in.
    alias: { 'virtual:pwa-register': fileURLToPath(new URL('./src/test/pwaRegister.ts', import.meta.url)) },
    restoreMocks: true,
    unstubGlobals: true,
    // One jsdom per worker rather than one per test file: starting jsdom was most of the run's
    // time. The files then share modules, so the app keeps no state in modules that a test
    // could see (the CSRF config is a query of each test's own client).
    pool: 'threads',
    isolate: false,
    // Sized for a loaded 2-core machine, where a whole-app test can take seconds.
    testTimeout: 20_000,
  },
});
