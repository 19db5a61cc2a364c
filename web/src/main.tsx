import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders, createQueryClient } from './app/providers';
import { createRouter } from './app/router';
import { watchTheme } from './lib/theme';
import './styles.css';

// index.html applied the theme before the first paint; from here it follows changes.
watchTheme();

const client = createQueryClient();
const router = createRouter();

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
