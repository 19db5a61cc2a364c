import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ToastProvider } from '@/components/Toasts';
import { ApiError } from '@/lib/api';
import { isAuthQuery, sessionQuery } from '@/lib/session';

export function createQueryClient(): QueryClient {
  // A 401 from the API means the session ended (signed out elsewhere, expired): check it again,
  // so the top bar and the pages switch to the signed-out state.
  const onError = (error: unknown) => {
    if (error instanceof ApiError && error.isUnauthenticated) void client.invalidateQueries({ queryKey: sessionQuery.queryKey });
  };
  const client: QueryClient = new QueryClient({
    // Not for the session check itself: that would ask again forever.
    queryCache: new QueryCache({ onError: (error, query) => !isAuthQuery(query) && onError(error) }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // Fetch even when the browser says offline: the service worker answers the reads it
        // kept (lib/offline.ts). Retries wait for the network to come back.
        networkMode: 'offlineFirst',
        refetchOnWindowFocus: true,
        // Client errors will not change on retry; a flaky network or a 5xx might.
        retry: (failures, error) => failures < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      },
      mutations: { retry: false },
    },
  });
  return client;
}

export function AppProviders({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={client}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  );
}
