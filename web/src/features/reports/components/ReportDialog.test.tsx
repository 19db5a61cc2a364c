import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, type Answer } from '@/test/mockApi';
import { lesson, signedOutLessonRoutes } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { reportPlaces } from './ReportDialog';

const report = {
  id: 1,
  lesson: 'embedding-dimension',
  lesson_title: 'Embedding dimension',
  kind: 'typo',
  message: 'A typo.',
  block: null,
  status: 'new',
  created_at: '2026-12-01T10:00:00Z',
  resolved_at: null,
  answer: '',
} as const;

function routes(answer: Answer<'POST /api/v1/lessons/{slug}/reports/'>) {
  return mockApi({ ...signedOutLessonRoutes(), 'POST /api/v1/lessons/embedding-dimension/reports/': answer });
}

describe('report an issue', () => {
  it('sends the kind, the message and the chosen block, then closes with a thank-you', async () => {
    const { calls } = routes({ status: 201, body: report });
    const user = userEvent.setup();
    renderApp('/lessons/embedding-dimension');
    await user.click(await screen.findByRole('button', { name: 'Report an issue' }));
    const dialog = screen.getByRole('dialog', { name: 'Report an issue' });
    await user.click(within(dialog).getByLabelText('Broken link'));
    await user.selectOptions(within(dialog).getByLabelText('Where (optional)'), within(dialog).getByRole('option', { name: /Table: Width and depth/ }));
    await user.type(within(dialog).getByLabelText(/^Details/), 'The arXiv link 404s.');
    await user.type(within(dialog).getByLabelText(/Your e-mail/), 'me@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await screen.findByText('Thanks — your report was sent.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      kind: 'broken_link',
      message: 'The arXiv link 404s.',
      block: 57,
      contact_email: 'me@example.com',
    });
  });

  it('says when to try again when reports are throttled', async () => {
    routes({
      status: 429,
      headers: { 'Retry-After': '42' },
      body: { type: 'throttled', title: 'Request was throttled.', status: 429, detail: 'Request was throttled.', errors: {} },
    });
    const user = userEvent.setup();
    renderApp('/lessons/embedding-dimension');
    await user.click(await screen.findByRole('button', { name: 'Report an issue' }));
    const dialog = screen.getByRole('dialog', { name: 'Report an issue' });
    await user.type(within(dialog).getByLabelText(/^Details/), 'Typo in the callout.');
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Too many requests — try again in 42 s.');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('closes on Escape', async () => {
    routes({ status: 201, body: report });
    const user = userEvent.setup();
    renderApp('/lessons/embedding-dimension');
    await user.click(await screen.findByRole('button', { name: 'Report an issue' }));
    const dialog = screen.getByRole('dialog', { name: 'Report an issue' });
    dialog.dispatchEvent(new Event('cancel', { cancelable: true }));
    await screen.findByRole('button', { name: 'Report an issue' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('labels every part as the lesson shows it, the links and the exercise included', () => {
    const places = reportPlaces(lesson.blocks, true, { title: 'Read d_model from three config.json files' });

    expect(places.map((place) => place.label)).toEqual([
      '1. Text: d_model is the width',
      '2. Table: Width and depth',
      '3. Code: Estimating parameter count',
      '4. Note: The estimate lands close',
      'Further reading (the links)',
      'Exercise: Read d_model from three config.json files',
    ]);
    expect(places.slice(-2).map((place) => place.block)).toEqual([null, null]);
  });

  it('opens from a part\'s own Report action with that part chosen, and names a part that is not a block in the message', async () => {
    const { calls } = routes({ status: 201, body: { ...report, id: 2 } });
    const user = userEvent.setup();
    renderApp('/lessons/embedding-dimension');
    await user.click(await screen.findByRole('button', { name: 'Report these links' }));
    const dialog = screen.getByRole('dialog', { name: 'Report an issue' });
    expect(within(dialog).getByLabelText('Where (optional)')).toHaveDisplayValue('Further reading (the links)');
    const send = within(dialog).getByRole('button', { name: 'Send report' });
    expect(send).toBeDisabled();
    expect(within(dialog).getByText('Describe the problem to send the report.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/^Details/), 'A dead link.');
    await user.click(send);
    expect(await screen.findByText('Thanks — your report was sent.')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ kind: 'typo', message: '[Further reading (the links)] A dead link.', block: null });
  });
});
