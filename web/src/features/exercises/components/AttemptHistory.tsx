import { useState } from 'react';
import { ErrorMessage } from '@/components/ErrorMessage';
import { Loading } from '@/components/Loading';
import { useTimeZone } from '@/lib/session';
import { formatDateTime } from '@/lib/timeZones';
import type { Feedback, SubmissionDetail, SubmissionListItem } from '@/lib/types';
import { FORMAT_LABELS } from '@/lib/tableFormat';
import { isPending, useSubmission } from '../api';
import { FeedbackTable } from './FeedbackTable';

type Attempt = SubmissionListItem | SubmissionDetail;

/** One attempt in a few words: "60% · not passed", "100% · passed · +60 XP", "could not be read". */
export function attemptResult(attempt: Attempt): string {
  if (isPending(attempt)) return 'being graded…';
  if (attempt.status === 'invalid') return 'could not be read';
  const score = `${Math.round((attempt.score ?? 0) * 100)}%`;
  return `${score} · ${attempt.passed ? 'passed' : 'not passed'}${attempt.xp_awarded ? ` · +${attempt.xp_awarded} XP` : ''}`;
}

/** Every attempt, newest first, each with its feedback on request. */
export function AttemptHistory({ attempts, total }: { attempts: Attempt[]; total: number }) {
  const zone = useTimeZone();
  return (
    <details className="attempt-history">
      <summary>
        Your attempts ({total}){total > attempts.length ? `, the latest ${attempts.length} shown` : ''}
      </summary>
      <ol reversed start={total}>
        {attempts.map((attempt) => (
          <li key={attempt.id}>
            <AttemptRow attempt={attempt} when={formatDateTime(attempt.created_at, zone)} />
          </li>
        ))}
      </ol>
    </details>
  );
}

function AttemptRow({ attempt, when }: { attempt: Attempt; when: string }) {
  const [open, setOpen] = useState(false);
  const listed = 'feedback' in attempt ? (attempt.feedback as Feedback | null) : undefined;
  return (
    <div className="attempt">
      <p>
        <time dateTime={attempt.created_at}>{when}</time> · {FORMAT_LABELS[attempt.format].split(' ')[0]} · <strong>{attemptResult(attempt)}</strong>
        {attempt.status === 'graded' ? (
          <>
            {' '}
            <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
              {open ? 'Hide feedback' : 'Show feedback'}
            </button>
          </>
        ) : null}
      </p>
      {attempt.status === 'invalid' && attempt.summary ? <p className="muted">{attempt.summary}</p> : null}
      {open && listed ? <FeedbackTable feedback={listed} /> : null}
      {open && listed === undefined ? <FetchedFeedback id={attempt.id} /> : null}
    </div>
  );
}

/** An attempt's feedback read on its own, for a list that does not carry it. */
function FetchedFeedback({ id }: { id: number }) {
  const submission = useSubmission(id);
  if (submission.isPending) return <Loading label="Loading the feedback…" />;
  if (submission.error) return <ErrorMessage error={submission.error} onRetry={() => void submission.refetch()} />;
  return submission.data.feedback ? <FeedbackTable feedback={submission.data.feedback} /> : null;
}
