import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { ErrorMessage, FieldError } from '@/components/ErrorMessage';
import { Loading } from '@/components/Loading';
import { ApiError } from '@/lib/api';
import { detectFormat, FORMAT_LABELS } from '@/lib/tableFormat';
import type { SubmissionFormat } from '@/lib/types';
import { exerciseQueries, isPending, useSubmission, useSubmitTable } from '../api';
import { FeedbackTable, GradeSummary } from './FeedbackTable';

type FormatChoice = SubmissionFormat | 'auto';

export function ExercisePanel({ exerciseId, signedIn }: { exerciseId: number; signedIn: boolean }) {
  const exercise = useQuery(exerciseQueries.detail(exerciseId));
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
      {data.passed ? <p className="badge badge-success">You have passed this exercise.</p> : null}
      {signedIn ? (
        <SubmissionForm exerciseId={data.id} />
      ) : (
        <p className="note">
          <Link to={`/signin?next=${encodeURIComponent(location.pathname)}`}>Sign in</Link> to submit your table and get
          it graded.
        </p>
      )}
    </section>
  );
}

function SubmissionForm({ exerciseId }: { exerciseId: number }) {
  const [content, setContent] = useState('');
  const [choice, setChoice] = useState<FormatChoice>('auto');
  const [pollPath, setPollPath] = useState<string | null>(null);
  const submit = useSubmitTable(exerciseId);
  const submission = useSubmission(pollPath);
  const contentId = useId();
  const formatId = useId();
  const detected = detectFormat(content);
  const format: SubmissionFormat = choice === 'auto' ? detected : choice;
  const grading = pollPath !== null && isPending(submission.data) && !submission.error;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setPollPath(null);
    submit.mutate({ format, content }, { onSuccess: (accepted) => setPollPath(accepted.poll) });
  };

  return (
    <>
      <form className="form" onSubmit={onSubmit} aria-label="Exercise submission">
        <label htmlFor={contentId}>Your table</label>
        <textarea
          id={contentId}
          value={content}
          onChange={(event) => setContent(event.target.value)}
          rows={8}
          required
          spellCheck={false}
          placeholder={'model,d_model,n_layers,n_heads,vocab_size,intermediate_size\ngpt2,768,12,12,50257,3072'}
          aria-describedby={`${contentId}-error`}
        />
        <FieldError error={submit.error} field="content" id={`${contentId}-error`} />
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
          <button type="submit" className="button" disabled={submit.isPending || grading || !content.trim()}>
            {submit.isPending ? 'Submitting…' : 'Submit'}
          </button>
        </div>
      </form>
      {submit.error && !(submit.error instanceof ApiError && submit.error.fieldError('content')) ? (
        <ErrorMessage error={submit.error} />
      ) : null}
      <div aria-live="polite">
        {grading ? <Loading label="grading…" /> : null}
        {submission.error ? <ErrorMessage error={submission.error} onRetry={() => void submission.refetch()} /> : null}
        {submission.data && !isPending(submission.data) ? (
          <div className="grade-result">
            <GradeSummary submission={submission.data} />
            {submission.data.feedback ? <FeedbackTable feedback={submission.data.feedback} /> : null}
          </div>
        ) : null}
      </div>
    </>
  );
}
