import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ExerciseDetail, SubmissionDetail } from '@/lib/types';
import { mockApi, signedInSession, signedOutSession } from '@/test/mockApi';
import { lesson, progressSummary, signedOutLessonRoutes } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const exercise: ExerciseDetail = {
  id: 1,
  slug: 'embedding-dimension-configs',
  lesson: 'embedding-dimension',
  title: 'Read d_model from three config.json files',
  kind: 'table',
  prompt: 'Tabulate three models.',
  prompt_html: '<p>Tabulate three models.</p>',
  key_column: { name: 'model', synonyms: [] },
  columns: [
    { name: 'd_model', field: 'd_model', synonyms: [], hint: '' },
    { name: 'n_layers', field: 'n_layers', synonyms: [], hint: '' },
  ],
  rows_required: 3,
  pass_mark: 0.8,
  xp: 60,
  passed: null,
  known_models: ['GPT-2'],
  example: 'model,d_model,n_layers\nmy-made-up-model,111,222',
  limits: { max_bytes: 65536, max_rows: 200 },
};

const graded: SubmissionDetail = {
  id: 5,
  exercise: 1,
  format: 'tsv',
  status: 'graded',
  score: 0.5,
  passed: false,
  xp_awarded: 0,
  summary: '1 of 2 cells correct.',
  created_at: '2026-11-30T10:00:00Z',
  content: 'model\td_model\tn_layers\nGPT-2\t768\t13',
  expected_revealed: false,
  feedback: {
    key_header: 'model',
    columns: [
      { name: 'd_model', headers: ['d_model'] },
      { name: 'n_layers', headers: ['n_layers'] },
    ],
    correct: 1,
    checked: 2,
    models_recognised: 1,
    rows: [
      {
        row: 1,
        name: 'GPT-2',
        model: 'GPT-2',
        duplicate: false,
        cells: [
          { column: 'd_model', submitted: '768', verdict: 'correct', expected: null, hint: null },
          { column: 'n_layers', submitted: '13', verdict: 'incorrect', expected: null, hint: null },
        ],
      },
    ],
  },
};

const lessonWithExercise = { ...lesson, exercise: { id: 1, title: exercise.title, kind: 'table', xp: 60 } };

const page = (results: SubmissionDetail[]) => ({ body: { count: results.length, next: null, previous: null, results } });

function routes(signedIn: boolean, polls: SubmissionDetail[], lists: SubmissionDetail[][] = [[]], exerciseBody: ExerciseDetail = exercise) {
  let poll = 0;
  let list = 0;
  return mockApi({
    'GET /api/v1/exercises/1/submissions/': () => page(lists[Math.min(list++, lists.length - 1)]),
    ...signedOutLessonRoutes(lessonWithExercise),
    'GET /api/v1/session': signedIn ? signedInSession() : signedOutSession,
    'GET /api/v1/exercises/1/': { body: exerciseBody },
    'GET /api/v1/me/progress?quest=transformers': { body: progressSummary() },
    'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
    'GET /api/v1/lessons/embedding-dimension/subscription': { body: { lesson: 'embedding-dimension', following: false, explicit: null, commented: false, follows_on_comment: true } },
    'POST /api/v1/exercises/1/submissions/': {
      status: 202,
      body: { id: 5, exercise: 1, status: 'queued', created_at: '2026-11-30T10:00:00Z', url: 'http://localhost/api/v1/submissions/5/' },
    },
    'GET /api/v1/submissions/5/': () => ({ body: polls[Math.min(poll++, polls.length - 1)] }),
  });
}

describe('exercise panel', () => {
  it('comes before "Mark complete" and "Report an issue" on the lesson page', async () => {
    routes(false, []);
    renderApp('/lessons/embedding-dimension');
    const panel = await screen.findByRole('region', { name: /Exercise: Read d_model/ });
    const complete = await screen.findByRole('button', { name: 'Mark complete' });
    const report = screen.getByRole('button', { name: 'Report an issue' });
    expect(panel.compareDocumentPosition(complete) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(complete.compareDocumentPosition(report) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Mark complete' })).toHaveLength(1);
  });

  it('shows the prompt and the expected columns, and asks a visitor to sign in to submit', async () => {
    routes(false, []);
    renderApp('/lessons/embedding-dimension');
    const panel = await screen.findByRole('region', { name: /Exercise: Read d_model/ });
    expect(await within(panel).findByText('Tabulate three models.')).toBeInTheDocument();
    expect(within(panel).getByText(/Expected columns:/).parentElement).toHaveTextContent('model, d_model, n_layers');
    expect(within(panel).getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/signin?next=%2Flessons%2Fembedding-dimension');
    expect(within(panel).queryByLabelText('Your table')).toBeNull();
  });

  it('submits the pasted table in the detected format, shows grading… while it polls, then the cells', async () => {
    const queued = { ...graded, status: 'queued' as const, feedback: null, score: null };
    const { calls } = routes(true, [queued, graded], [[], [graded]]);
    const user = userEvent.setup();
    renderApp('/lessons/embedding-dimension');
    const panel = await screen.findByRole('region', { name: /Exercise: Read d_model/ });
    expect(await within(panel).findByTestId('exercise-status')).toHaveTextContent('Not attempted yet · pass mark 80%');
    const box = within(panel).getByLabelText('Your table');
    await user.click(box);
    await user.paste('model\td_model\tn_layers\nGPT-2\t768\t13');
    expect(within(panel).getByLabelText('Format')).toHaveDisplayValue('Detect automatically (TSV (from a spreadsheet))');
    await user.click(within(panel).getByRole('button', { name: 'Submit' }));
    expect(await within(panel).findByText('grading…')).toBeInTheDocument();
    const table = await within(panel).findByRole('table', { name: /1 of 2 checked cells correct/ });
    expect(within(table).getByText('13').closest('td')).toHaveAttribute('data-verdict', 'incorrect');
    expect(within(panel).queryByText('grading…')).toBeNull();
    expect(within(panel).getByTestId('exercise-status')).toHaveTextContent('Not passed yet · latest attempt 50% (pass mark 80%)');
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.body).toEqual({ format: 'tsv', content: 'model\td_model\tn_layers\nGPT-2\t768\t13' });
    expect(calls.filter((call) => call.url === '/api/v1/submissions/5/').length).toBeGreaterThanOrEqual(2);
    // The box keeps the table that was graded.
    expect(within(panel).getByLabelText('Your table')).toHaveValue('model\td_model\tn_layers\nGPT-2\t768\t13');
  });

  it('celebrates an attempt sent from the page that passes, in the live region', async () => {
    const passing = { ...graded, score: 1, passed: true, xp_awarded: 60, summary: '2 of 2 cells correct.' };
    const queued = { ...passing, status: 'queued' as const, feedback: null, score: null, passed: false, xp_awarded: 0 };
    routes(true, [queued, passing], [[], [passing]]);
    const user = userEvent.setup();
    renderApp('/lessons/embedding-dimension');
    const panel = await screen.findByRole('region', { name: /Exercise: Read d_model/ });
    await user.click(await within(panel).findByLabelText('Your table'));
    await user.paste('model\td_model\tn_layers\nGPT-2\t768\t12');
    await user.click(within(panel).getByRole('button', { name: 'Submit' }));
    const celebration = await within(panel).findByTestId('exercise-passed');
    expect(celebration).toHaveTextContent('Exercise passed! +60 XP');
    // Inside the panel's polite live region, so a screen reader says it; the drawing is not read.
    expect(celebration.closest('[aria-live="polite"]')).not.toBeNull();
    expect(celebration.querySelector('[aria-hidden="true"] svg')).not.toBeNull();
  });

  it('does not celebrate again a passed attempt a reload brings back', async () => {
    const passing = { ...graded, score: 1, passed: true, xp_awarded: 60 };
    routes(true, [passing], [[passing]], { ...exercise, passed: true });
    renderApp('/lessons/embedding-dimension');
    const panel = await screen.findByRole('region', { name: /Exercise: Read d_model/ });
    expect(await within(panel).findByTestId('exercise-status')).toHaveTextContent('Passed · latest attempt 100%');
    expect(within(panel).queryByTestId('exercise-passed')).toBeNull();
  });

  it('brings back the latest attempt, its feedback and the history after a reload', async () => {
    const older = { ...graded, id: 4, score: 0.9, passed: true, xp_awarded: 60, created_at: '2026-11-29T10:00:00Z' };
    routes(true, [graded], [[graded, older]], { ...exercise, passed: true });
    const user = userEvent.setup();
    renderApp('/lessons/embedding-dimension');
    const panel = await screen.findByRole('region', { name: /Exercise: Read d_model/ });
    expect(await within(panel).findByRole('table', { name: /1 of 2 checked cells correct/ })).toBeInTheDocument();
    expect(within(panel).getByLabelText('Your table')).toHaveValue(graded.content);
    // One line tells the best result and the latest attempt apart.
    const status = within(panel).getByTestId('exercise-status');
    expect(status).toHaveTextContent('Passed earlier (best 90%) · latest attempt 50%, below the pass mark (80%)');
    expect(within(panel).queryByText(/You have passed/)).toBeNull();
    await user.click(within(panel).getByText('Your attempts (2)'));
    const items = within(panel).getAllByRole('listitem').filter((item) => item.closest('.attempt-history'));
    expect(items.map((item) => item.querySelector('strong')?.textContent)).toEqual(['50% · not passed', '90% · passed · +60 XP']);
  });

  it('states the limits beside the box and checks them before sending', async () => {
    const { calls } = routes(true, []);
    const user = userEvent.setup();
    renderApp('/lessons/embedding-dimension');
    const panel = await screen.findByRole('region', { name: /Exercise: Read d_model/ });
    const box = await within(panel).findByLabelText('Your table');
    // The example is the server's made-up row, not a real model's figures.
    expect(box).toHaveAttribute('placeholder', exercise.example);
    expect(within(panel).getByText(/At most 200 rows and 64 KiB\./)).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Submit' })).toBeDisabled();
    expect(within(panel).getByText('Paste your table to submit it.')).toBeInTheDocument();
    await user.click(box);
    await user.paste(`model,d_model\n${'GPT-2,768\n'.repeat(201)}`);
    expect(within(panel).getByText('The table has 201 rows under the header; at most 200 are accepted.')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Submit' })).toBeDisabled();
    expect(within(panel).getByText('Fix the problem above to submit.')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('shows the reason a table was refused next to the box, and clears it when the table changes', async () => {
    mockApi({
      ...signedOutLessonRoutes(lessonWithExercise),
      'GET /api/v1/session': signedInSession(),
      'GET /api/v1/exercises/1/': { body: exercise },
      'GET /api/v1/exercises/1/submissions/': page([]),
      'GET /api/v1/me/progress?quest=transformers': { status: 503, body: { type: 'server_error', title: 'Unavailable.', status: 503, detail: 'Try later.', errors: {} } },
      'GET /api/v1/me/notifications/?unread=true&page_size=1': { body: { count: 0, results: [], unread_count: 0 } },
      'GET /api/v1/lessons/embedding-dimension/subscription': { body: { lesson: 'embedding-dimension', following: false, explicit: null, commented: false, follows_on_comment: true } },
      'POST /api/v1/exercises/1/submissions/': {
        status: 400,
        body: { type: 'validation_error', title: 'Invalid input.', status: 400, detail: 'content: a formula', errors: { content: ['Line 2, cell 2 starts with "=" like a spreadsheet formula.'] } },
      },
    });
    const user = userEvent.setup();
    renderApp('/lessons/embedding-dimension');
    const panel = await screen.findByRole('region', { name: /Exercise: Read d_model/ });
    await user.type(await within(panel).findByLabelText('Your table'), 'model,d_model{enter}GPT-2,=1+1');
    await user.click(within(panel).getByRole('button', { name: 'Submit' }));
    const message = await within(panel).findByText('Line 2, cell 2 starts with "=" like a spreadsheet formula.');
    expect(within(panel).getAllByText(/spreadsheet formula/)).toHaveLength(1);
    expect(within(panel).getByLabelText('Your table').getAttribute('aria-describedby')).toContain(message.parentElement?.id);
    await user.clear(within(panel).getByLabelText('Your table'));
    expect(within(panel).queryByText(/spreadsheet formula/)).toBeNull();
  });
});
