import { describe, expect, it } from 'vitest';
import { syncResult } from '@/test/fixtures';
import { mockApi } from '@/test/mockApi';
import { readAnswers, readEvents, recordAnswer, recordCompletion, recordReveal } from './progressStore';
import { onSynced, syncLocalProgress } from './progressSync';

const answersAnswer = (over: object = {}) => ({ body: { accepted: 2, duplicates: 0, rejected: [], xp_awarded: 34, lessons_completed: ['embedding-dimension'], new_achievements: [], ...over } });
const eventsAnswer = { body: syncResult() };

describe('handing the device progress over', () => {
  it('answers null when the device keeps nothing', async () => {
    const { calls } = mockApi({});
    expect(await syncLocalProgress()).toBeNull();
    expect(calls).toEqual([]);
  });

  it('sends the answers to checks first, as the sync takes them, and clears them', async () => {
    recordAnswer({ check: 61, lesson: 'embedding-dimension', answer: { value: '768' }, correct: false }, new Date('2026-11-29T21:00:00Z'));
    recordReveal(61);
    recordAnswer({ check: 61, lesson: 'embedding-dimension', answer: { value: '64' }, correct: true }, new Date('2026-11-29T21:01:00Z'));
    const kept = readAnswers();
    const { calls } = mockApi({ 'POST /api/v1/me/checks/sync': answersAnswer() });
    expect(await syncLocalProgress()).toEqual({ synced: 1 });
    expect(calls.map((call) => call.url)).toEqual(['/api/v1/me/checks/sync']);
    expect(calls[0].body).toEqual({
      device_id: expect.stringMatching(/^web-/),
      answers: kept.map(({ id, check, answer, answered_at, revealed }) => ({ id, check, answer, answered_at, revealed })),
    });
    expect(calls[0].body).toMatchObject({ answers: [{ revealed: false }, { revealed: true }] });
    expect(readAnswers()).toEqual([]);
  });

  it('drops the device completion of a lesson its answers completed, and sends the others', async () => {
    recordAnswer({ check: 61, lesson: 'embedding-dimension', answer: { value: '64' }, correct: true });
    recordCompletion('embedding-dimension');
    const other = recordCompletion('token-embeddings');
    const { calls } = mockApi({ 'POST /api/v1/me/checks/sync': answersAnswer(), 'POST /api/v1/me/progress/sync': eventsAnswer });
    expect(await syncLocalProgress()).toEqual({ synced: 2 });
    expect(calls.find((call) => call.url === '/api/v1/me/progress/sync')?.body).toMatchObject({ events: [other] });
    expect(readEvents()).toEqual([]);
  });

  it('clears rejected answers too: they are refused for good', async () => {
    recordAnswer({ check: 999, lesson: 'gone', answer: { value: '1' }, correct: true });
    const [kept] = readAnswers();
    mockApi({ 'POST /api/v1/me/checks/sync': answersAnswer({ accepted: 0, lessons_completed: [], rejected: [{ id: kept.id, reason: 'unknown_check', detail: 'No such check.' }] }) });
    expect(await syncLocalProgress()).toEqual({ synced: 0 });
    expect(readAnswers()).toEqual([]);
  });

  it('keeps the answers when the sync fails', async () => {
    recordAnswer({ check: 61, lesson: 'embedding-dimension', answer: { value: '64' }, correct: true });
    recordCompletion('embedding-dimension');
    mockApi({ 'POST /api/v1/me/checks/sync': { status: 503, body: { type: 'unavailable', title: 'Unavailable.', status: 503, detail: 'Later.', errors: {} } } });
    await expect(syncLocalProgress()).rejects.toMatchObject({ status: 503 });
    expect(readAnswers()).toHaveLength(1);
    expect(readEvents()).toHaveLength(1);
  });

  it('tells its listeners what the answers unlocked', async () => {
    recordAnswer({ check: 61, lesson: 'embedding-dimension', answer: { value: '64' }, correct: true });
    const unlocked = [{ slug: 'first-check', title: 'First check', xp_bonus: 5 }];
    mockApi({ 'POST /api/v1/me/checks/sync': answersAnswer({ new_achievements: unlocked }) });
    const heard: unknown[] = [];
    const stop = onSynced((result) => heard.push(result.new_achievements));
    await syncLocalProgress();
    stop();
    expect(heard).toEqual([unlocked]);
  });
});
