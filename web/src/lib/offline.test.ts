import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeCaches } from '@/test/caches';
import { API_CACHE, forgetPersonalCaches, keptForOffline, PERSONAL_CACHE, rememberForOffline } from './offline';

describe('offline copies', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('does nothing where there is no Cache Storage', async () => {
    vi.stubGlobal('caches', undefined);
    await expect(rememberForOffline('/api/v1/lessons/a/', { slug: 'a' })).resolves.toBeUndefined();
  });

  it('keeps a lesson in the public cache as the JSON the API answers', async () => {
    const stores = fakeCaches();
    await rememberForOffline('/api/v1/lessons/a/', { slug: 'a' });
    expect(stores.get(API_CACHE)?.get('/api/v1/lessons/a/')).toBe('{"slug":"a"}');
  });

  it('keeps a read in the cache it names and answers its data', async () => {
    const stores = fakeCaches();
    await expect(keptForOffline('/api/v1/session', async () => ({ is_authenticated: true }), PERSONAL_CACHE)).resolves.toEqual({
      is_authenticated: true,
    });
    await vi.waitFor(() => expect(stores.get(PERSONAL_CACHE)?.has('/api/v1/session')).toBe(true));
  });

  it('on sign-out forgets the personal cache and the quest outlines, not the lessons', async () => {
    const stores = fakeCaches();
    await rememberForOffline('/api/v1/session', { is_authenticated: true }, PERSONAL_CACHE);
    await rememberForOffline('/api/v1/lessons/a/', { slug: 'a' });
    await rememberForOffline('/api/v1/quests/transformers/', { slug: 'transformers' });
    await forgetPersonalCaches();
    expect(stores.has(PERSONAL_CACHE)).toBe(false);
    expect([...stores.get(API_CACHE)!.keys()]).toEqual(['/api/v1/lessons/a/']);
  });

  it("on sign-out forgets the draft lessons a staff member read, not the published ones", async () => {
    const stores = fakeCaches();
    await rememberForOffline('/api/v1/lessons/a/', { slug: 'a', published: true });
    await rememberForOffline('/api/v1/lessons/next-week/', { slug: 'next-week', published: false });
    await forgetPersonalCaches();
    expect([...stores.get(API_CACHE)!.keys()]).toEqual(['/api/v1/lessons/a/']);
  });

  it('does not keep a read that was under way when the learner signed out', async () => {
    const stores = fakeCaches();
    let answer!: (value: unknown) => void;
    const read = keptForOffline('/api/v1/me/progress', () => new Promise((resolve) => (answer = resolve)), PERSONAL_CACHE);
    await forgetPersonalCaches();
    answer({ xp: 10 });
    await read;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(stores.get(PERSONAL_CACHE)?.has('/api/v1/me/progress') ?? false).toBe(false);
  });
});
