import { ScrollBox } from '@/components/ScrollBox';
import type { CellFeedback, Feedback, SubmissionDetail, Verdict } from '@/lib/types';

const VERDICT: Record<Verdict, { mark: string; label: string }> = {
  correct: { mark: '✓', label: 'correct' },
  incorrect: { mark: '✗', label: 'incorrect' },
  missing: { mark: '–', label: 'missing' },
  // A wrong cell (it counts against the score) with its own message, never a column's hint.
  unparseable: { mark: '✗', label: 'not a number' },
  unchecked: { mark: '·', label: 'not checked' },
};

const MISSED = new Set<Verdict>(['incorrect', 'missing']);

/** What an unreadable cell ("14k", "seven hundred") says instead of a column's hint. */
export const UNREADABLE_MESSAGE = 'not a number: write the figure in digits, as 4096 or 4,096';

/** The editor's hint for a missed cell's column (the API sends it only for missing or wrong cells). */
function hintOf(cell: CellFeedback): string | null {
  return cell.hint && MISSED.has(cell.verdict) ? cell.hint : null;
}

/** The grade: one row per submitted row, each cell marked correct, incorrect or missing. */
export function FeedbackTable({ feedback }: { feedback: Feedback }) {
  const columns = feedback.columns.map((column) => column.name);
  // One hint per missed column, under the table, in the table's column order.
  const hints = new Map<string, string>();
  for (const column of columns) {
    for (const row of feedback.rows) {
      const cell = row.cells.find((candidate) => candidate.column === column);
      const hint = cell ? hintOf(cell) : null;
      if (hint) {
        hints.set(column, hint);
        break;
      }
    }
  }
  return (
    <>
      <ScrollBox label="Feedback per cell">
        <table className="feedback-table">
          <caption>
            {feedback.correct} of {feedback.checked} checked cells correct · {feedback.models_recognised} model
            {feedback.models_recognised === 1 ? '' : 's'} recognised
          </caption>
          <thead>
            <tr>
              <th scope="col">{feedback.key_header ?? 'model'}</th>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {feedback.rows.map((row) => (
              <tr key={row.row}>
                <th scope="row">
                  {row.name}
                  {row.model === null ? <span className="muted"> (not recognised)</span> : null}
                  {row.duplicate ? <span className="muted"> (repeated)</span> : null}
                </th>
                {columns.map((column) => {
                  const cell = row.cells.find((candidate) => candidate.column === column);
                  if (!cell) return <td key={column} />;
                  const verdict = VERDICT[cell.verdict] ?? VERDICT.unchecked;
                  return (
                    <td key={column} className={`cell-${cell.verdict}`} data-verdict={cell.verdict}>
                      <span aria-hidden="true" className="verdict-mark">
                        {verdict.mark}
                      </span>{' '}
                      {cell.submitted || <em>empty</em>}
                      <span className="visually-hidden"> ({verdict.label})</span>
                      {cell.expected !== null && cell.expected !== undefined && cell.verdict !== 'correct' ? (
                        <span className="expected"> expected {String(cell.expected)}</span>
                      ) : null}
                      {cell.verdict === 'unparseable' ? <span className="cell-hint"> {UNREADABLE_MESSAGE}</span> : null}
                      {hintOf(cell) ? <span className="cell-hint"> see the hint below</span> : null}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
      {hints.size ? (
        <ul className="hints" aria-label="Hints for the columns you missed">
          {[...hints].map(([column, hint]) => (
            <li key={column}>
              <strong>Hint for {column}:</strong> {hint}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

/** What a graded attempt adds to the status line: the XP it paid and the grader's sentence. */
export function GradeSummary({ submission }: { submission: SubmissionDetail }) {
  if (submission.status === 'invalid') {
    return (
      <div className="error">
        <p>
          <strong>The table could not be read.</strong> {submission.summary}
        </p>
      </div>
    );
  }
  if (!submission.xp_awarded && !submission.summary) return null;
  return (
    <div className="grade-details">
      {submission.xp_awarded ? <p className="badge badge-success">+{submission.xp_awarded} XP</p> : null}
      {submission.summary ? <p>{submission.summary}</p> : null}
    </div>
  );
}
