import { onlineManager } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readEvents, recordCompletion } from '@/lib/progressStore';
import { allauthConfig, mockApi, signedOutSession } from '@/test/mockApi';
import { lesson, signedOutLessonRoutes } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const signedOutRoutes = () => mockApi(signedOutLessonRoutes());

describe('lesson page, signed out', () => {
  afterEach(() => onlineManager.setOnline(true));

  it('offline, a lesson never opened on this device says so at once, and opens when the network is back', async () => {
    let reachable = false;
    mockApi({
      ...signedOutLessonRoutes(),
      'GET /api/v1/lessons/embedding-dimension/': () => {
        if (!reachable) throw new TypeError('Failed to fetch');
        return { body: lesson };
      },
    });
    onlineManager.setOnline(false);
    renderApp('/lessons/embedding-dimension');
    expect(await screen.findByRole('heading', { level: 1, name: 'This lesson is not on this device yet' }, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.queryByText('Loading the lesson…')).not.toBeInTheDocument();

    reachable = true;
    act(() => onlineManager.setOnline(true));
    expect(await screen.findByRole('heading', { level: 1, name: 'Embedding dimension (d_model)' })).toBeInTheDocument();
  });

  it('ends on the new address when the old slug of a renamed lesson answers', async () => {
    // fetch follows the API's 301 from the old slug: the answer is the lesson under its new one.
    mockApi({ ...signedOutLessonRoutes(), 'GET /api/v1/lessons/d-model/': { body: lesson } });
    const { router } = renderApp('/lessons/d-model');
    expect(await screen.findByRole('heading', { level: 1, name: 'Embedding dimension (d_model)' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/lessons/embedding-dimension');
  });

  it('shows the header computed from the level curve and the quest', async () => {
    signedOutRoutes();
    renderApp('/lessons/embedding-dimension');
    const header = await screen.findByTestId('progress-header');
    expect(within(header).getByText('Level 0 · Token')).toBeInTheDocument();
    expect(within(header).getByText('0/94 lessons')).toBeInTheDocument();
    expect(within(header).getByText('0/10 achievements')).toBeInTheDocument();
    expect(within(header).getByText('0/120 XP to next level')).toBeInTheDocument();
    expect(within(header).getByText('120 XP to go')).toBeInTheDocument();
    expect(within(header).getByText('0% complete')).toBeInTheDocument();
    expect(within(header).getByRole('progressbar', { name: 'XP toward the next level' })).toHaveAttribute('aria-valuemax', '120');
    expect(header).toHaveTextContent('Progress is local-only — sign in to sync across devices');
  });

  it('shows the lesson’s number from the quest’s order, not its typed position', async () => {
    mockApi(signedOutLessonRoutes({ ...lesson, position: 40, number: 3 }));
    renderApp('/lessons/embedding-dimension');
    expect(await screen.findByRole('link', { name: 'How transformer language models work' })).toBeInTheDocument();
    expect(screen.getByText(/· Lesson 3$/)).toBeInTheDocument();
    expect(screen.queryByText(/Lesson 40/)).not.toBeInTheDocument();
  });

  it('renders the title, minutes, tags and every kind of block', async () => {
    signedOutRoutes();
    renderApp('/lessons/embedding-dimension');
    expect(await screen.findByRole('heading', { level: 1, name: 'Embedding dimension (d_model)' })).toBeInTheDocument();
    expect(screen.getByText('10 min')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Tags' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'capacity',
      'd-model',
      'scaling',
    ]);
    expect(screen.getByRole('table', { name: 'Width and depth' })).toHaveTextContent('GPT-2768');
    expect(screen.getByText('Estimating parameter count')).toBeInTheDocument();
    // highlight.js (loaded on demand) marked up the Python keyword.
    await waitFor(() => expect(document.querySelector('.hljs-keyword')?.textContent).toBe('def'));
    expect(screen.getByRole('complementary', { name: 'Note' })).toHaveTextContent('The estimate lands close');
    const link = screen.getByRole('link', { name: /Attention Is All You Need/ });
    expect(link).toHaveAttribute('href', 'https://arxiv.org/abs/1706.03762');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('link', { name: /Previous: Token embeddings/ })).toHaveAttribute('href', '/lessons/token-embeddings');
    expect(screen.getByRole('link', { name: /Next: What lives in embedding space/ })).toHaveAttribute('href', '/lessons/embedding-geometry');
  });

  it('copies a code block to the clipboard', async () => {
    signedOutRoutes();
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    renderApp('/lessons/embedding-dimension');
    await user.click(await screen.findByRole('button', { name: /Copy code: Estimating parameter count/ }));
    expect(writeText).toHaveBeenCalledWith(lesson.blocks[2].kind === 'code' ? lesson.blocks[2].source : '');
    expect(await screen.findByRole('button', { name: 'Copied code: Estimating parameter count' })).toBeInTheDocument();
  });

  it('marks the lesson complete on this device and updates the header', async () => {
    const { calls } = signedOutRoutes();
    const user = userEvent.setup();
    renderApp('/lessons/embedding-dimension');
    await user.click(await screen.findByRole('button', { name: 'Mark complete' }));
    const header = screen.getByTestId('progress-header');
    expect(await within(header).findByText('1/94 lessons')).toBeInTheDocument();
    expect(within(header).getByText('50/120 XP to next level')).toBeInTheDocument();
    expect(within(header).getByText('70 XP to go')).toBeInTheDocument();
    expect(screen.getByText('✓ Completed')).toBeInTheDocument();
    expect(readEvents()).toEqual([expect.objectContaining({ type: 'lesson_completed', lesson: 'embedding-dimension' })]);
    // Nothing went to the server: signed out, completions stay on the device.
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('announces a level-up that a completion on this device brings', async () => {
    recordCompletion('lesson-1');
    recordCompletion('lesson-2');
    signedOutRoutes();
    const user = userEvent.setup();
    renderApp('/lessons/embedding-dimension');
    const header = await screen.findByTestId('progress-header');
    expect(await within(header).findByText('100/120 XP to next level')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Mark complete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Level up!' });
    expect(within(dialog).getByTestId('level-up-name')).toHaveTextContent('Level 1 · Embedding');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await within(header).findByText('Level 1 · Embedding')).toBeInTheDocument();
    expect(within(header).getByText('30/160 XP to next level')).toBeInTheDocument();
  });

  it('shows a not-found page with the way home, and no retry, for an unknown lesson', async () => {
    mockApi({
      'GET /_allauth/browser/v1/config': allauthConfig,
      'GET /api/v1/session': signedOutSession,
      'GET /api/v1/lessons/nope/': {
        status: 404,
        body: { type: 'not_found', title: 'Not found.', status: 404, detail: 'No such lesson.', errors: {} },
      },
    });
    renderApp('/lessons/nope');
    expect(await screen.findByRole('heading', { name: 'This lesson does not exist' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the quests' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });
});
