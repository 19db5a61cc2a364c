import type { Feedback, SubmissionDetail, Verdict } from '@/lib/types';

const VERDICT: Record<Verdict, { mark: string; label: string }> = {
  correct: { mark: '✓', label: 'correct' },
  incorrect: { mark: '✗', label: 'incorrect' },
  missing: { mark: '–', label: 'missing' },
  unparseable: { mark: '?', label: 'unparseable' },
  unchecked: { mark: '·', label: 'not checked' },
};

/** The grade: one row per submitted row, each cell marked correct, incorrect or missing. */
export function FeedbackTable({ feedback }: { feedback: Feedback }) {
  const columns = feedback.columns.map((column) => column.name);
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label="Feedback per cell">
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
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function GradeSummary({ submission }: { submission: SubmissionDetail }) {
  if (submission.status === 'invalid') {
    return (
      <div className="error" role="alert">
        <p>
          <strong>The table could not be read.</strong> {submission.summary}
        </p>
      </div>
    );
  }
  const score = Math.round((submission.score ?? 0) * 100);
  return (
    <div className={submission.passed ? 'grade grade-passed' : 'grade grade-failed'} role="status">
      <p>
        <strong>{submission.passed ? 'Passed' : 'Not passed yet'}</strong> · score {score}%
        {submission.xp_awarded ? ` · +${submission.xp_awarded} XP` : ''}
      </p>
      {submission.summary ? <p>{submission.summary}</p> : null}
    </div>
  );
}
