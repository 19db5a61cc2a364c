import { onlineManager } from '@tanstack/react-query';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { readEvents } from '@/lib/progressStore';
import { mockApi, signedInSession } from '@/test/mockApi';
import { lesson, progressSummary, signedOutLessonRoutes } from '@/test/fixtures';
import { renderApp } from '@/test/render';

/** A signed-in learner on the reference lesson whose completion POST finds no network. */
function signedInWithoutNetwork() {
  return mockApi({
    ...signedOutLessonRoutes(),
    'GET /api/v1/session': signedInSession(),
    'GET /api/v1/me/progress?quest=transformers': { body: progressSummary() },
    'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    [`GET /api/v1/lessons/${lesson.slug}/subscription`]: { body: { lesson: lesson.slug, following: false, explicit: null, commented: false, follows_on_comment: true } },
    [`POST /api/v1/lessons/${lesson.slug}/complete`]: () => {
      throw new TypeError('Failed to fetch');
    },
    'POST /api/v1/me/progress/sync': { body: { ...progressSummary(), rejected: [], new_achievements: [], changes: [], cursor: 'c1' } },
  });
}

describe('completing a lesson offline, signed in', () => {
  afterEach(() => onlineManager.setOnline(true));

  it('keeps the completion on the device and says it syncs later', async () => {
    signedInWithoutNetwork();
    const user = userEvent.setup();
    renderApp(`/lessons/${lesson.slug}`);
    await user.click(await screen.findByRole('button', { name: 'Mark complete' }));

    expect(await screen.findByText('Saved on this device')).toBeInTheDocument();
    expect(screen.getByText('It syncs when you are back online.')).toBeInTheDocument();
    expect(screen.getByText('✓ Completed')).toBeInTheDocument();
    expect(readEvents()).toEqual([expect.objectContaining({ type: 'lesson_completed', lesson: lesson.slug })]);
  });

  it('sends the kept completion when the network comes back', async () => {
    const { calls } = signedInWithoutNetwork();
    const user = userEvent.setup();
    renderApp(`/lessons/${lesson.slug}`);
    const button = await screen.findByRole('button', { name: 'Mark complete' });
    act(() => onlineManager.setOnline(false));
    await user.click(button);
    await screen.findByText('Saved on this device');
    expect(calls.some((call) => call.url === '/api/v1/me/progress/sync')).toBe(false);

    act(() => onlineManager.setOnline(true));

    await waitFor(() => expect(readEvents()).toEqual([]));
    const sync = calls.find((call) => call.url === '/api/v1/me/progress/sync');
    expect(sync?.body).toMatchObject({ events: [expect.objectContaining({ lesson: lesson.slug })] });
  });
});
