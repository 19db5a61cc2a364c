import { vi } from 'vitest';

/**
 * Replaces Cache Storage with one in memory (cache name → path → body) and returns it.
 * `beforeDelete` runs before a whole cache is deleted: a test can hold that step there.
 */
export function fakeCaches(beforeDelete?: (name: string) => Promise<void>) {
  const stores = new Map<string, Map<string, string>>();
  const open = async (name: string) => {
    if (!stores.has(name)) stores.set(name, new Map());
    const store = stores.get(name)!;
    return {
      put: async (url: string, response: Response) => void store.set(url, await response.text()),
      keys: async () => [...store.keys()].map((url) => new Request(new URL(url, 'http://localhost'))),
      match: async (request: Request) => {
        const body = store.get(new URL(request.url).pathname);
        return body === undefined ? undefined : new Response(body);
      },
      delete: async (request: Request) => store.delete(new URL(request.url).pathname),
    };
  };
  const remove = async (name: string) => {
    await beforeDelete?.(name);
    return stores.delete(name);
  };
  vi.stubGlobal('caches', { open, delete: remove });
  return stores;
}
