import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { ErrorMessage } from '@/components/ErrorMessage';
import { ApiError } from '@/lib/api';
import { takeEarlyAnswer } from '@/lib/earlyAnswers';
import { deviceId } from '@/lib/progressStore';
import { useAuth } from '@/lib/session';
import type { CheckBlock, CheckReveal } from '@/lib/types';
import { useAnswerCheck, useRevealCheck, type Answered } from '../api';
import { CHECK_KINDS } from '../kinds';
import { useChecks } from './ChecksSession';
import { Icon } from '@/components/Icon';

/** An answer the server could not read ("seven hundred"): said as a message, not counted as a try. */
function unreadable(error: unknown): string | null {
  return error instanceof ApiError && error.status === 400 ? (error.fieldError('answer') ?? error.detail) : null;
}

/** One of the lesson's checks: its prompt, its control, the feedback at once, and "Show answer" after enough wrong tries. */
export function CheckView({ block }: { block: CheckBlock }) {
  const session = useChecks();
  const { check } = block;
  const kind = CHECK_KINDS[check.type];
  const idPrefix = `check-${block.id}`;
  // The same order on every visit from this device, another on the next device.
  const seed = useMemo(() => `${deviceId()}:${check.key}`, [check.key]);
  // An answer given on the server's page before the app arrived is this check's first draft,
  // taken over at once (below): its reply when index.html sent it, else sent now.
  const [early] = useState(() => takeEarlyAnswer(block.id));
  const [draft, setDraft] = useState<unknown>(() => (early ? early.draft : kind.initial(check, seed)));
  const [graded, setGraded] = useState<{ answered: Answered; draft: unknown } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [solution, setSolution] = useState<CheckReveal | null>(null);
  const solutionBox = useRef<HTMLDivElement>(null);
  const answer = useAnswerCheck(session.lesson, session.checks, block.id);
  const reveal = useRevealCheck(session.lesson.slug, block.id);
  const standing = session.standings.get(block.id);
  const number = session.checks.findIndex((each) => each.id === block.id) + 1;
  const canReveal = Boolean(standing && !standing.passed && standing.can_reveal);

  // "Show answer" is gone once pressed: the focus goes to the answer it showed.
  useEffect(() => {
    if (solution) solutionBox.current?.focus();
  }, [solution]);

  const send = (sent: unknown, early?: Promise<Response>) => {
    setGraded(null);
    const missing = kind.missing(sent, check);
    setNotice(missing);
    if (missing) return;
    answer.mutate({ answer: kind.answer(sent), early }, {
      onSuccess: (answered) => {
        setGraded({ answered, draft: sent });
        session.answered(answered);
      },
      onError: (error) => setNotice(unreadable(error)),
    });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send(draft);
  };
  const earlySent = useRef(false);
  const { isPending: sessionPending } = useAuth();
  useEffect(() => {
    // Once the session is known: taken over as a signed-out answer while it is still loading,
    // a signed-in learner's answer would be kept on the device too, and synced as a second try.
    if (!early || earlySent.current || sessionPending) return;
    earlySent.current = true;
    send(early.draft, early.sent);
    // Once: `send` is this render's, which is what the early answer needs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [early, sessionPending]);

  const Input = kind.Input;
  const marks = graded && graded.draft === draft ? graded.answered.result.marks : null;
  return (
    <section className="check-card" id={`block-${block.id}`} aria-labelledby={`${idPrefix}-title`}>
      <div className="check-head">
        <h2 id={`${idPrefix}-title`} className="check-title">
          Check {number} of {session.checks.length}
        </h2>
        {standing?.passed ? <span className="badge badge-success">✓ Passed{standing.revealed ? ' (answer shown)' : ''}</span> : null}
      </div>
      <div className="prose check-prompt" id={`${idPrefix}-prompt`} dangerouslySetInnerHTML={{ __html: block.html }} />
      <form className="check-form" onSubmit={submit} noValidate>
        <Input check={check} draft={draft} onChange={setDraft} marks={marks} promptId={`${idPrefix}-prompt`} idPrefix={idPrefix} seed={seed} />
        <div className="row">
          <button type="submit" className="button" disabled={answer.isPending}>
            {answer.isPending ? 'Checking…' : 'Check answer'}
          </button>
          {canReveal && !solution ? (
            <button type="button" className="button secondary" disabled={reveal.isPending} onClick={() => reveal.mutate(undefined, { onSuccess: setSolution })}>
              Show answer
            </button>
          ) : null}
        </div>
      </form>
      {standing && !standing.passed && !canReveal && standing.wrong_tries > 0 ? (
        <p className="check-hint">
          After {check.reveal_after} wrong tries you can see the answer ({standing.wrong_tries} so far).
        </p>
      ) : null}
      <div className="check-feedback" role="status">
        {notice ? <p className="check-notice">{notice}</p> : null}
        {/* Offline, the answer waits for the network (the query client resumes it). */}
        {answer.isPaused ? <p className="check-notice">You are offline: your answer is checked when you are back online.</p> : null}
        {graded ? <Feedback answered={graded.answered} /> : null}
      </div>
      {answer.error && !unreadable(answer.error) ? <ErrorMessage error={answer.error} /> : null}
      {reveal.error ? <ErrorMessage error={reveal.error} /> : null}
      {solution ? (
        <div className="check-solution" ref={solutionBox} tabIndex={-1} aria-labelledby={`${idPrefix}-solution`}>
          <h3 id={`${idPrefix}-solution`}>The answer</h3>
          {kind.solution(check, solution.solution)}
          <p className="check-explanation">{solution.explanation}</p>
          {standing?.passed ? null : <p className="muted">Answer it now to pass the check: a shown answer earns no XP.</p>}
        </div>
      ) : null}
    </section>
  );
}

function Feedback({ answered }: { answered: Answered }) {
  const session = useChecks();
  const { result, completedNow } = answered;
  if (!result.correct) {
    return (
      <div className="check-result wrong">
        <p className="check-verdict">Not quite.</p>
        {result.feedback.map((line) => (
          <p key={line}>{line}</p>
        ))}
        <p>Try again.</p>
      </div>
    );
  }
  return (
    <div className="check-result right">
      <p className="check-verdict">
        <span className="check-burst">
          <Icon name="celebrate" size={20} />
        </span>{' '}
        Right!{result.xp_awarded > 0 ? ` +${result.xp_awarded} XP` : null}
      </p>
      {result.revealed && result.xp_awarded === 0 ? <p className="muted">No XP for this one: its answer was shown first.</p> : null}
      {result.explanation ? <p className="check-explanation">{result.explanation}</p> : null}
      {completedNow ? (
        <p>
          <strong>Lesson complete!</strong>{' '}
          <button type="button" className="link-button" onClick={session.showResults}>
            See your results
          </button>
        </p>
      ) : session.passed === session.checks.length && session.lesson.exercise ? (
        <p>All checks passed: the exercise below completes the lesson.</p>
      ) : (
        <p>
          {session.passed} of {session.checks.length} checks passed.
        </p>
      )}
    </div>
  );
}
