import { onlineManager } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Subscription } from '@/lib/types';
import { mockApi, signedInSession } from '@/test/mockApi';
import { lesson, progressSummary, signedOutLessonRoutes } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const SUBSCRIPTION = `/api/v1/lessons/${lesson.slug}/subscription`;

function routes(state: Subscription) {
  let current = state;
  const follow = (following: boolean) => () => {
    current = { ...current, following, explicit: following, follows_on_comment: false };
    return { body: current };
  };
  return mockApi({
    ...signedOutLessonRoutes(),
    'GET /api/v1/session': signedInSession(),
    'GET /api/v1/me/progress?quest=transformers': { body: progressSummary() },
    'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    [`GET ${SUBSCRIPTION}`]: () => ({ body: current }),
    [`PUT ${SUBSCRIPTION}`]: follow(true),
    [`DELETE ${SUBSCRIPTION}`]: follow(false),
  });
}

async function toggle() {
  const comments = await screen.findByRole('region', { name: 'Comments' });
  return within(comments).findByRole('checkbox', { name: 'Notify me of new comments and replies' });
}

describe('the follow control', () => {
  it('shows on, and says why, on a lesson the author commented on by default', async () => {
    routes({ lesson: lesson.slug, following: true, explicit: null, commented: true, follows_on_comment: true });
    renderApp(`/lessons/${lesson.slug}`);
    const box = await toggle();
    expect(box).toBeChecked();
    expect(box).toHaveAccessibleDescription('On because you commented here (your setting: follow the lessons I comment on).');
  });

  it('says that commenting turns it on, or that the settings keep it off', async () => {
    routes({ lesson: lesson.slug, following: false, explicit: null, commented: false, follows_on_comment: true });
    const first = renderApp(`/lessons/${lesson.slug}`);
    const box = await toggle();
    expect(box).not.toBeChecked();
    expect(box).toHaveAccessibleDescription('Off. Posting a comment here turns it on.');
    first.unmount();

    routes({ lesson: lesson.slug, following: false, explicit: null, commented: true, follows_on_comment: false });
    renderApp(`/lessons/${lesson.slug}`);
    expect(await toggle()).toHaveAccessibleDescription(/^Off: your settings do not follow the lessons you comment on/);
  });

  it('follows and stops following, saying that even replies then stay silent', async () => {
    const { calls } = routes({ lesson: lesson.slug, following: true, explicit: null, commented: true, follows_on_comment: true });
    const user = userEvent.setup();
    renderApp(`/lessons/${lesson.slug}`);
    await user.click(await toggle());
    await waitFor(async () => expect(await toggle()).not.toBeChecked());
    expect(await toggle()).toHaveAccessibleDescription('Off: you stopped following this lesson, so not even replies to your comments notify you.');
    await user.click(await toggle());
    await waitFor(async () => expect(await toggle()).toBeChecked());
    expect(await toggle()).toHaveAccessibleDescription('On: you chose to follow this lesson.');
    expect(calls.filter((call) => call.url === SUBSCRIPTION && call.method !== 'GET').map((call) => call.method)).toEqual(['DELETE', 'PUT']);
  });
});

describe('offline', () => {
  afterEach(() => onlineManager.setOnline(true));

  it('says the comment box works again online, and sends nothing meanwhile', async () => {
    routes({ lesson: lesson.slug, following: false, explicit: null, commented: false, follows_on_comment: true });
    const user = userEvent.setup();
    renderApp(`/lessons/${lesson.slug}`);
    const comments = await screen.findByRole('region', { name: 'Comments' });
    const box = await within(comments).findByLabelText('Add a comment');
    await user.type(box, 'Why 4 x d_model?');
    const send = within(comments).getByRole('button', { name: 'Post comment' });
    expect(send).toBeEnabled();

    act(() => onlineManager.setOnline(false));
    expect(within(comments).getByText('You are offline: comments can be sent again once you are back online.')).toBeInTheDocument();
    expect(send).toBeDisabled();

    act(() => onlineManager.setOnline(true));
    expect(send).toBeEnabled();
  });
});
