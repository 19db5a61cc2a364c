import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { signedInPageRoutes } from '@/test/fixtures';
import { mockApi } from '@/test/mockApi';
import { renderApp } from '@/test/render';

const report = (id: number, fields: object) => ({
  id,
  lesson: 'embedding-dimension',
  lesson_title: 'The embedding dimension',
  kind: 'typo',
  message: `Report ${id}`,
  block: null,
  status: 'new',
  created_at: '2026-12-01T09:00:00Z',
  resolved_at: null,
  answer: '',
  ...fields,
});

function routes(pages: Record<string, object>) {
  return mockApi({
    ...signedInPageRoutes(),
    ...Object.fromEntries(Object.entries(pages).map(([url, body]) => [`GET ${url}`, { body }])),
  });
}

describe('My reports', () => {
  it('lists the learner’s reports with their state and the editors’ answer, page after page', async () => {
    routes({
      '/api/v1/me/reports/': {
        count: 3,
        next: 'http://testserver/api/v1/me/reports/?page=2',
        previous: null,
        results: [
          report(3, { kind: 'incorrect', status: 'resolved', resolved_at: '2026-12-02T10:00:00Z', answer: 'Fixed: it says d_model now.' }),
          report(2, { status: 'rejected', resolved_at: '2026-12-02T11:00:00Z' }),
        ],
      },
      '/api/v1/me/reports/?page=2': { count: 3, next: null, previous: null, results: [report(1, { status: 'triaged' })] },
    });
    const user = userEvent.setup();
    renderApp('/reports');
    const list = await screen.findByRole('list', { name: 'Your reports' });
    const [resolved, rejected] = within(list).getAllByRole('article');
    expect(within(resolved).getByRole('heading', { name: 'Something is incorrect on The embedding dimension' })).toBeInTheDocument();
    expect(within(resolved).getByRole('link', { name: 'The embedding dimension' })).toHaveAttribute('href', '/lessons/embedding-dimension');
    expect(resolved).toHaveTextContent('Resolved');
    expect(resolved).toHaveTextContent('The editors’ answer: Fixed: it says d_model now.');
    expect(rejected).toHaveTextContent('Not changed');
    expect(rejected).toHaveTextContent('Closed without an answer.');
    await user.click(screen.getByRole('button', { name: 'More reports' }));
    const third = (await within(list).findAllByRole('article'))[2];
    expect(third).toHaveTextContent('Being looked at');
    expect(third).toHaveTextContent('No answer yet.');
    expect(screen.queryByRole('button', { name: 'More reports' })).toBeNull();
  });

  it('says when there is nothing yet', async () => {
    routes({ '/api/v1/me/reports/': { count: 0, next: null, previous: null, results: [] } });
    renderApp('/reports');
    expect(await screen.findByText('You have not reported anything yet.')).toBeInTheDocument();
  });
});
