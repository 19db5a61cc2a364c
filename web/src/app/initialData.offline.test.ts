import { afterEach, expect, it, vi } from 'vitest';
import { API_CACHE, PERSONAL_CACHE } from '@/lib/offline';
import { allauthConfig, mockApi, signedOutSession } from '@/test/mockApi';
import { achievements, lesson, levels, quest } from '@/test/fixtures';
import { INITIAL_DATA_ID, seedInitialData } from './initialData';
import { createQueryClient } from './providers';

// A file of its own: the idle writes of initialData.test.tsx's pages would land in this one's caches.
afterEach(() => vi.unstubAllGlobals());

it("keeps each answer a page was served with for offline reading, the learner's own in the personal cache", async () => {
  mockApi({ 'GET /_allauth/browser/v1/config': allauthConfig });
  const kept = new Map<string, string[]>();
  const open = async (name: string) => ({ put: async (url: string) => void kept.set(name, [...(kept.get(name) ?? []), url]) });
  vi.stubGlobal('caches', { open });
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = INITIAL_DATA_ID;
  script.textContent = JSON.stringify({ lesson, quest, session: signedOutSession.body, levels, achievements });
  document.body.append(script);

  seedInitialData(createQueryClient());

  expect(kept.size).toBe(0); // not before the page is idle
  await vi.waitFor(() =>
    expect(Object.fromEntries(kept)).toEqual({
      [API_CACHE]: [`/api/v1/lessons/${lesson.slug}/`, '/api/v1/quests/transformers/', '/api/v1/levels/'],
      [PERSONAL_CACHE]: ['/api/v1/achievements/', '/api/v1/session'],
    }),
  );
});
