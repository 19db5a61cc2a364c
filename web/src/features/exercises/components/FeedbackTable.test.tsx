import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Feedback, SubmissionDetail } from '@/lib/types';
import { FeedbackTable, GradeSummary, UNREADABLE_MESSAGE } from './FeedbackTable';

const feedback: Feedback = {
  key_header: 'model',
  columns: [
    { name: 'd_model', headers: ['hidden_size'] },
    { name: 'n_layers', headers: ['num_hidden_layers'] },
  ],
  correct: 3,
  checked: 4,
  models_recognised: 2,
  rows: [
    {
      row: 1,
      name: 'gpt2',
      model: 'gpt2',
      duplicate: false,
      cells: [
        { column: 'd_model', submitted: '768', verdict: 'correct', expected: null, hint: null },
        { column: 'n_layers', submitted: '13', verdict: 'incorrect', expected: null, hint: null },
      ],
    },
    {
      row: 2,
      name: 'llama-3-8b',
      model: 'llama-3-8b',
      duplicate: false,
      cells: [
        { column: 'd_model', submitted: '4096', verdict: 'correct', expected: null, hint: null },
        { column: 'n_layers', submitted: '', verdict: 'missing', expected: 32, hint: 'Count the blocks: num_hidden_layers.' },
      ],
    },
  ],
};

describe('FeedbackTable', () => {
  it('marks each cell with its verdict, in text as well as colour', () => {
    render(<FeedbackTable feedback={feedback} />);
    const table = screen.getByRole('table');
    expect(within(table).getByText('3 of 4 checked cells correct · 2 models recognised')).toBeInTheDocument();
    const [, gpt2, llama] = within(table).getAllByRole('row');
    const gpt2Cells = within(gpt2).getAllByRole('cell');
    expect(gpt2Cells.map((cell) => cell.dataset.verdict)).toEqual(['correct', 'incorrect']);
    expect(gpt2Cells[1]).toHaveTextContent('13 (incorrect)');
    expect(gpt2Cells[1]).toHaveClass('cell-incorrect');
    const llamaCells = within(llama).getAllByRole('cell');
    expect(llamaCells[1]).toHaveTextContent('empty (missing) expected 32');
  });

  it('summarises a graded submission', () => {
    const submission: SubmissionDetail = {
      id: 1,
      exercise: 1,
      format: 'csv',
      status: 'graded',
      score: 0.75,
      passed: false,
      xp_awarded: 0,
      summary: '3 of 4 cells correct.',
      created_at: '2026-11-30T10:00:00Z',
      content: '',
      expected_revealed: false,
      feedback,
    };
    const { container } = render(<GradeSummary submission={{ ...submission, xp_awarded: 60 }} />);
    // The pass or fail is the exercise's status line, said once; the summary adds the rest.
    expect(container).toHaveTextContent('+60 XP3 of 4 cells correct.');
    expect(container).not.toHaveTextContent(/passed/i);
  });

  it('shows a column\'s hint once, under the table, when a cell of that column is missed', () => {
    render(<FeedbackTable feedback={feedback} />);
    const hints = screen.getByRole('list', { name: 'Hints for the columns you missed' });
    expect(within(hints).getAllByRole('listitem')).toHaveLength(1);
    expect(hints).toHaveTextContent('Hint for n_layers: Count the blocks: num_hidden_layers.');
    expect(screen.getByText('empty').closest('td')).toHaveTextContent('see the hint below');
  });

  it('marks an unreadable cell wrong with its own message, and no column hint even when one comes', () => {
    const unreadable: Feedback = {
      ...feedback,
      rows: [
        {
          ...feedback.rows[1],
          cells: [
            { column: 'd_model', submitted: '14k', verdict: 'unparseable', expected: null, hint: null },
            // An older server sent the column's hint with it: it is still not shown.
            { column: 'n_layers', submitted: 'seven hundred', verdict: 'unparseable', expected: null, hint: 'Count the blocks: num_hidden_layers.' },
          ],
        },
      ],
    };
    render(<FeedbackTable feedback={unreadable} />);
    const [, row] = within(screen.getByRole('table')).getAllByRole('row');
    const [d_model, n_layers] = within(row).getAllByRole('cell');
    expect(d_model).toHaveTextContent(`✗ 14k (not a number) ${UNREADABLE_MESSAGE}`);
    expect(n_layers).toHaveTextContent(`✗ seven hundred (not a number) ${UNREADABLE_MESSAGE}`);
    expect(n_layers).not.toHaveTextContent('see the hint below');
    expect(screen.queryByRole('list', { name: 'Hints for the columns you missed' })).toBeNull();
  });

  it('explains an invalid submission', () => {
    render(
      <GradeSummary
        submission={{ id: 2, exercise: 1, format: 'csv', status: 'invalid', summary: 'No header row.', created_at: '', content: '', expected_revealed: false, feedback: null }}
      />,
    );
    expect(screen.getByText(/could not be read/).closest('p')).toHaveTextContent('The table could not be read. No header row.');
  });
});
