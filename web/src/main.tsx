import { StrictMode, startTransition } from 'react';
import { RouterProvider } from 'react-router';
import { seedInitialData } from './app/initialData';
import { AppProviders, createQueryClient } from './app/providers';
import { createRouter } from './app/router';
import { followNetworkState } from './lib/offline';
import { registerServiceWorker } from './lib/serviceWorker';
import { watchTheme } from './lib/theme';
import './styles.css';

const client = createQueryClient();

/**
 * Hands the main thread back to the browser for a moment. Evaluating the bundle, building the
 * router and rendering are each a long stretch on a phone; run back to back they are one task
 * the page cannot answer a tap during.
 */
const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Starts the app. Run from a microtask, not from the module's top level: a browser with its
 * developer tools attached (Lighthouse is one) records where each timer and listener was set,
 * and working that out for a frame that is a whole bundle's top level costs tens of milliseconds.
 */
async function start() {
  // Evaluating react-dom is a long task of its own; the file is already on its way (a
  // modulepreload link, vite.config.ts).
  const reactDom = import('react-dom/client');
  // index.html applied the theme before the first paint; from here it follows changes.
  watchTheme();
  await yieldToBrowser();
  // A lesson or quest page's first answer holds its API data: the page renders from it, unfetched.
  seedInitialData(client);
  followNetworkState();
  registerServiceWorker();
  await yieldToBrowser();
  const router = createRouter();
  await yieldToBrowser();
  // The server's markup in #root is replaced by the same page as the app draws it (pages/web.py).
  const { createRoot } = await reactDom;
  await yieldToBrowser();
  const root = createRoot(document.getElementById('root') as HTMLElement);
  // The first render as a transition: React yields to the browser every few milliseconds instead
  // of one long task, so a phone stays responsive while the app starts.
  startTransition(() =>
    root.render(
      <StrictMode>
        <AppProviders client={client}>
          <RouterProvider router={router} />
        </AppProviders>
      </StrictMode>,
    ),
  );
}

queueMicrotask(() => void start());
