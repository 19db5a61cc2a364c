import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { seedInitialData } from './app/initialData';
import { AppProviders, createQueryClient } from './app/providers';
import { createRouter } from './app/router';
import { followNetworkState } from './lib/offline';
import { registerServiceWorker } from './lib/serviceWorker';
import { watchTheme } from './lib/theme';
import './styles.css';

// index.html applied the theme before the first paint; from here it follows changes.
watchTheme();

const client = createQueryClient();
// A lesson or quest page's first answer holds its API data: the page renders from it, unfetched.
seedInitialData(client);
followNetworkState();
registerServiceWorker();

/**
 * Hands the main thread back to the browser for a moment. Evaluating the bundle, building the
 * router and rendering are each a long stretch on a phone; run back to back they are one task
 * the page cannot answer a tap during.
 */
const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function start() {
  await yieldToBrowser();
  const router = createRouter();
  await yieldToBrowser();
  // The server's markup in #root is replaced by the same page as the app draws it (pages/web.py).
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

void start();
