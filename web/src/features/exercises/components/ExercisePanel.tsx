import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { ErrorMessage, FieldError, FormError } from '@/components/ErrorMessage';
import { Loading } from '@/components/Loading';
import { useTimeZone } from '@/lib/session';
import { detectFormat, FORMAT_LABELS } from '@/lib/tableFormat';
import { formatDateTime } from '@/lib/timeZones';
import type { ExerciseDetail, SubmissionDetail, SubmissionFormat, SubmissionListItem, SubmissionPage } from '@/lib/types';
import { exerciseQueries, isPending, useSubmission, useSubmitTable } from '../api';
import { limitProblem, limitsText, measureTable, sizeText, type Limits } from '../limits';
import { statusLine } from '../status';
import { AttemptHistory } from './AttemptHistory';
import { ExercisePassed } from './ExercisePassed';
import { FeedbackTable, GradeSummary } from './FeedbackTable';

type FormatChoice = SubmissionFormat | 'auto';

export function ExercisePanel({ exerciseId, signedIn }: { exerciseId: number; signedIn: boolean }) {
  const exercise = useQuery(exerciseQueries.detail(exerciseId));
  const attempts = useQuery({ ...exerciseQueries.attempts(exerciseId), enabled: signedIn });
  const location = useLocation();
  if (exercise.isPending) return <Loading label="Loading the exercise…" />;
  if (exercise.error) return <ErrorMessage error={exercise.error} onRetry={() => void exercise.refetch()} />;
  const data = exercise.data;
  return (
    <section className="exercise" aria-labelledby="exercise-title">
      <h2 id="exercise-title">Exercise: {data.title}</h2>
      <div className="prose" dangerouslySetInnerHTML={{ __html: data.prompt_html }} />
      <p>
        <strong>Expected columns:</strong>{' '}
        {[data.key_column.name, ...data.columns.map((column) => column.name)].map((name, index) => (
          <span key={name}>
            {index > 0 ? ', ' : ''}
            <code>{name}</code>
          </span>
        ))}
        {data.rows_required ? ` · at least ${data.rows_required} rows` : ''} · pass mark {Math.round(data.pass_mark * 100)}%
        {data.xp ? ` · ${data.xp} XP` : ''}
      </p>
      {signedIn ? (
        <Attempts exercise={data} attempts={attempts} />
      ) : (
        <p className="note">
          <Link to={`/signin?next=${encodeURIComponent(location.pathname)}`}>Sign in</Link> to submit your table and get
          it graded.
        </p>
      )}
    </section>
  );
}

/** The status line, the box, the latest attempt's grade and the history: all from the server, so a reload keeps them. */
function Attempts({ exercise, attempts }: { exercise: ExerciseDetail; attempts: UseQueryResult<SubmissionPage> }) {
  const [submitted, setSubmitted] = useState<number | null>(null);
  const list = attempts.data?.results ?? [];
  const latestId = submitted ?? list[0]?.id ?? null;
  const latest = useSubmission(latestId);
  const zone = useTimeZone();
  // The attempt just sent is newer than the list until the list is read again.
  const known: (SubmissionListItem | SubmissionDetail)[] =
    latest.data && !list.some((item) => item.id === latest.data.id) ? [latest.data, ...list] : list.map((item) => (item.id === latest.data?.id ? latest.data : item));
  const status = statusLine({ passed: Boolean(exercise.passed), attempts: known, passMark: exercise.pass_mark });
  const grading = latestId !== null && isPending(latest.data) && !latest.error;
  // Celebrated only as it happens: an attempt sent from this page, not one a reload brings back.
  const passedNow = submitted !== null && latest.data?.id === submitted && latest.data.status === 'graded' && latest.data.passed === true;

  if (attempts.isPending) return <Loading label="Loading your attempts…" />;
  return (
    <>
      {attempts.error ? <ErrorMessage error={attempts.error} onRetry={() => void attempts.refetch()} /> : null}
      <p className={`exercise-status status-${status.tone}`} role="status" data-testid="exercise-status">
        {status.text}
      </p>
      <SubmissionForm
        exerciseId={exercise.id}
        example={exercise.example}
        limits={exercise.limits}
        restored={latest.data?.content}
        grading={grading}
        onSubmitted={setSubmitted}
      />
      <div aria-live="polite">
        {grading ? <Loading label="grading…" /> : null}
        {passedNow ? <ExercisePassed xp={latest.data?.xp_awarded ?? 0} /> : null}
        {latest.error ? <ErrorMessage error={latest.error} onRetry={() => void latest.refetch()} /> : null}
        {latest.data && !isPending(latest.data) ? (
          <div className="grade-result">
            <h3 className="result-title">
              Your latest attempt{' '}
              <time className="muted" dateTime={latest.data.created_at}>
                {formatDateTime(latest.data.created_at, zone)}
              </time>
            </h3>
            <GradeSummary submission={latest.data} />
            {latest.data.feedback ? <FeedbackTable feedback={latest.data.feedback} /> : null}
          </div>
        ) : null}
      </div>
      {known.length > 1 ? <AttemptHistory attempts={known} total={Math.max(attempts.data?.count ?? 0, known.length)} /> : null}
    </>
  );
}

interface FormProps {
  exerciseId: number;
  /** The server's made-up table in the exercise's columns: the box's placeholder, never an answer. */
  example: string;
  /** The server's limits for a submission (the exercise's `limits`). */
  limits: Limits;
  /** The latest attempt's table: it fills the box until the learner types (so a reload keeps it). */
  restored?: string;
  grading: boolean;
  onSubmitted: (id: number) => void;
}

function SubmissionForm({ exerciseId, example, limits, restored, grading, onSubmitted }: FormProps) {
  const [typed, setTyped] = useState<string | null>(null);
  const content = typed ?? restored ?? '';
  const [choice, setChoice] = useState<FormatChoice>('auto');
  const submit = useSubmitTable(exerciseId);
  const contentId = useId();
  const formatId = useId();
  const detected = detectFormat(content);
  const format: SubmissionFormat = choice === 'auto' ? detected : choice;
  const size = measureTable(content, format);
  const problem = limitProblem(size, limits);
  const reason = grading
    ? 'Wait for the grade of your last attempt.'
    : !content.trim()
      ? 'Paste your table to submit it.'
      : problem
        ? 'Fix the problem above to submit.'
        : null;

  const onChange = (next: string) => {
    setTyped(next);
    // A message about the old table is wrong about the new one.
    if (submit.error) submit.reset();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (reason || submit.isPending) return;
    setTyped(content);
    submit.mutate({ format, content }, { onSuccess: (accepted) => onSubmitted(accepted.id) });
  };

  return (
    <form className="form" onSubmit={onSubmit} aria-label="Exercise submission" noValidate>
      <label htmlFor={contentId}>Your table</label>
      <p className="field-help muted" id={`${contentId}-limits`}>
        CSV, TSV, Markdown or JSON. {limitsText(limits)} {content ? <span data-testid="table-size">Now: {sizeText(size)}.</span> : null}
      </p>
      <textarea
        id={contentId}
        value={content}
        onChange={(event) => onChange(event.target.value)}
        rows={8}
        spellCheck={false}
        placeholder={example}
        aria-invalid={Boolean(problem || submit.error)}
        aria-describedby={`${contentId}-limits ${contentId}-error`}
      />
      {/* The one place for what is wrong with the table, before or after sending. */}
      <div id={`${contentId}-error`}>
        {problem ? <p className="field-error">{problem}</p> : <FieldError error={submit.error} field="content" id={`${contentId}-server-error`} />}
        {!problem ? <FormError error={submit.error} fields={['content']} /> : null}
      </div>
      <div className="row">
        <label htmlFor={formatId}>Format</label>
        <select id={formatId} value={choice} onChange={(event) => setChoice(event.target.value as FormatChoice)}>
          <option value="auto">Detect automatically{content.trim() ? ` (${FORMAT_LABELS[detected]})` : ''}</option>
          {(Object.keys(FORMAT_LABELS) as SubmissionFormat[]).map((key) => (
            <option key={key} value={key}>
              {FORMAT_LABELS[key]}
            </option>
          ))}
        </select>
        <button type="submit" className="button" disabled={submit.isPending || reason !== null} aria-describedby={reason ? `${contentId}-reason` : undefined}>
          {submit.isPending ? 'Submitting…' : 'Submit'}
        </button>
        {reason ? (
          <span className="muted" id={`${contentId}-reason`}>
            {reason}
          </span>
        ) : null}
      </div>
    </form>
  );
}
