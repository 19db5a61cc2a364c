/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The Django server the dev server forwards API, auth, static and admin requests to.
const backend = process.env.VITE_BACKEND_URL ?? 'http://127.0.0.1:8000';
const proxy = Object.fromEntries(
  ['/api', '/_allauth', '/static', '/admin'].map((prefix) => [prefix, { target: backend, changeOrigin: false }]),
);

export default defineConfig({
  base: '/',
  plugins: [react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: { port: Number(process.env.VITE_PORT ?? 5173), proxy },
  preview: { port: Number(process.env.VITE_PORT ?? 4173), proxy },
  build: { outDir: 'dist', assetsDir: 'assets', emptyOutDir: true, sourcemap: false },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.mjs'],
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
