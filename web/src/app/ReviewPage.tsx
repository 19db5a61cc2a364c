import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ErrorMessage } from '@/components/ErrorMessage';
import { Loading } from '@/components/Loading';
import { CHECK_KINDS } from '@/features/checks/kinds';
import { reviewQueries, useAnswerReview, type ReviewAnswered } from '@/features/reviews/api';
import { useLocalReviews } from '@/features/reviews/store';
import { ApiError } from '@/lib/api';
import { newId } from '@/lib/progressStore';
import { useAuth, useTimeZone } from '@/lib/session';
import { formatDateTime } from '@/lib/timeZones';
import type { ReviewCard } from '@/lib/types';
import { useDocumentTitle } from '@/lib/useDocumentTitle';
import { Icon } from '@/components/Icon';

/** What one card's answer did, for the end of the session. */
interface Outcome {
  correct: boolean | null;
  xp: number;
}

/**
 * The Review page: the learner's due cards, one at a time, each check asked again with its
 * lesson's controls (features/checks' kinds: options and items shuffled anew) and graded by the
 * server with the lesson's feedback. With no network an answer is kept on the device and graded
 * at the next sync. The cards are those due when the page opened: answering does not reshuffle
 * the session under the learner.
 */
export function ReviewPage() {
  useDocumentTitle('Review');
  const { user } = useAuth();
  const queue = useQuery(reviewQueries.queue());
  const waiting = useLocalReviews(user?.id);
  const [session, setSession] = useState<ReviewCard[] | null>(null);
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);

  if (session === null && queue.data) {
    // The session starts with the cards due now; those answered offline and not synced yet
    // are not asked twice.
    const kept = new Set(waiting.map((review) => review.check));
    setSession(queue.data.cards.filter((card) => !kept.has(card.check.id)));
  }

  const [checking, setChecking] = useState(false);
  // A new session starts from the queue as the server has it now: until it answers, the page
  // stays as it is (the cached queue would ask the cards just answered again).
  const again = () => {
    setChecking(true);
    void queue.refetch().finally(() => {
      setChecking(false);
      setSession(null);
      setOutcomes([]);
    });
  };

  if (queue.error && !session) return <ErrorMessage error={queue.error} onRetry={() => void queue.refetch()} />;
  if (!session) return <Loading label="Loading your reviews…" />;
  const current = session[outcomes.length];
  return (
    <div className="review-page">
      <h1>Review</h1>
      {session.length === 0 ? (
        <NothingDue nextDueAt={queue.data?.next_due_at ?? null} waiting={waiting.length} />
      ) : current ? (
        <ReviewCardView
          key={current.check.id}
          card={current}
          number={outcomes.length + 1}
          total={session.length}
          onNext={(outcome) => setOutcomes((done) => [...done, outcome])}
        />
      ) : (
        <SessionDone outcomes={outcomes} waiting={waiting.length} checking={checking} onAgain={again} />
      )}
    </div>
  );
}

function NothingDue({ nextDueAt, waiting }: { nextDueAt: string | null; waiting: number }) {
  const zone = useTimeZone();
  return (
    <section className="card review-empty" aria-labelledby="review-empty-title">
      <h2 id="review-empty-title">Nothing to review</h2>
      <p data-testid="review-next">
        {nextDueAt
          ? `You are up to date. The next card is due ${formatDateTime(nextDueAt, zone)}.`
          : 'Answer the checks in a lesson: each one comes back here before you would forget it.'}
      </p>
      {waiting ? <WaitingNote waiting={waiting} /> : null}
      <p>
        <Link to="/">Back to your quest</Link>
      </p>
    </section>
  );
}

function WaitingNote({ waiting }: { waiting: number }) {
  return (
    <p className="muted" data-testid="review-waiting">
      {waiting} {waiting === 1 ? 'review is' : 'reviews are'} saved on this device: graded when you are back online.
    </p>
  );
}

function SessionDone({ outcomes, waiting, checking, onAgain }: { outcomes: Outcome[]; waiting: number; checking: boolean; onAgain: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const right = outcomes.filter((outcome) => outcome.correct).length;
  const graded = outcomes.filter((outcome) => outcome.correct !== null).length;
  const xp = outcomes.reduce((sum, outcome) => sum + outcome.xp, 0);
  return (
    <section className="card review-done" aria-labelledby="review-done-title">
      <h2 id="review-done-title" ref={heading} tabIndex={-1}>
        Review done
      </h2>
      <p data-testid="review-score">
        {graded ? `${right} of ${graded} right` : 'All saved on this device'}
        {xp > 0 ? ` · +${xp} XP` : ''}
      </p>
      {waiting ? <WaitingNote waiting={waiting} /> : null}
      <div className="row">
        <button type="button" className="button" disabled={checking} onClick={onAgain}>
          {checking ? 'Checking…' : 'Check for more'}
        </button>
        <Link className="button secondary" to="/">
          Back to your quest
        </Link>
      </div>
    </section>
  );
}

/** An answer the server could not read: said as a message; nothing was scheduled. */
function unreadable(error: unknown): string | null {
  return error instanceof ApiError && error.status === 400 ? (error.fieldError('answer') ?? error.detail) : null;
}

function ReviewCardView({ card, number, total, onNext }: { card: ReviewCard; number: number; total: number; onNext: (outcome: Outcome) => void }) {
  const block = card.check;
  const { check } = block;
  const kind = CHECK_KINDS[check.type];
  const idPrefix = `review-${block.id}`;
  // A new order each time the card is asked: recalling the answer, not where it was.
  const seed = useMemo(() => newId(), []);
  const [draft, setDraft] = useState<unknown>(() => kind.initial(check, seed));
  const [answered, setAnswered] = useState<ReviewAnswered | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const shownAt = useRef<number | null>(null);
  const title = useRef<HTMLHeadingElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const answer = useAnswerReview();

  // The card's heading takes the focus as it is shown (after the first), its Next button once
  // answered; the time to answer counts from when it was shown.
  useEffect(() => {
    shownAt.current = performance.now();
    if (number > 1) title.current?.focus();
  }, [number]);
  useEffect(() => {
    if (answered) next.current?.focus();
  }, [answered]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (answered) return;
    const missing = kind.missing(draft, check);
    setNotice(missing);
    if (missing) return;
    answer.mutate(
      { check: block.id, answer: kind.answer(draft), durationMs: performance.now() - (shownAt.current ?? performance.now()) },
      { onSuccess: setAnswered, onError: (error) => setNotice(unreadable(error)) },
    );
  };

  const Input = kind.Input;
  const result = answered && !answered.pending ? answered.result : null;
  return (
    <section className="check-card review-card" aria-labelledby={`${idPrefix}-title`} data-testid="review-card">
      <div className="check-head">
        <h2 id={`${idPrefix}-title`} className="check-title" ref={title} tabIndex={-1}>
          Card {number} of {total}
        </h2>
        <span className="muted">
          From <Link to={`/lessons/${card.lesson.slug}`}>{card.lesson.title}</Link>
        </span>
      </div>
      <div className="prose check-prompt" id={`${idPrefix}-prompt`} dangerouslySetInnerHTML={{ __html: block.html }} />
      <form className="check-form" onSubmit={submit} noValidate>
        <fieldset className="plain" disabled={Boolean(answered)}>
          <Input check={check} draft={draft} onChange={setDraft} marks={result?.marks ?? null} promptId={`${idPrefix}-prompt`} idPrefix={idPrefix} seed={seed} />
        </fieldset>
        {answered ? null : (
          <div className="row">
            <button type="submit" className="button" disabled={answer.isPending}>
              {answer.isPending ? 'Checking…' : 'Check answer'}
            </button>
          </div>
        )}
      </form>
      <div className="check-feedback" role="status">
        {notice ? <p className="check-notice">{notice}</p> : null}
        {answered ? <ReviewFeedback answered={answered} check={check} /> : null}
      </div>
      {answer.error && !unreadable(answer.error) ? <ErrorMessage error={answer.error} /> : null}
      {answered ? (
        <div className="row">
          <button
            type="button"
            className="button"
            ref={next}
            onClick={() => onNext({ correct: result ? result.correct : null, xp: result?.xp_awarded ?? 0 })}
          >
            {number < total ? 'Next card' : 'Finish'}
          </button>
        </div>
      ) : null}
    </section>
  );
}

function ReviewFeedback({ answered, check }: { answered: ReviewAnswered; check: ReviewCard['check']['check'] }) {
  const zone = useTimeZone();
  if (answered.pending) {
    return (
      <div className="check-result">
        <p className="check-verdict">Saved on this device.</p>
        <p>It is graded and scheduled when you are back online.</p>
      </div>
    );
  }
  const { result } = answered;
  const when = result.scheduled ? <p className="muted">Next time: {formatDateTime(result.due, zone)}.</p> : null;
  if (!result.correct) {
    return (
      <div className="check-result wrong">
        <p className="check-verdict">Not quite.{result.xp_awarded > 0 ? ` +${result.xp_awarded} XP for trying` : ''}</p>
        {result.feedback.map((line) => (
          <p key={line}>{line}</p>
        ))}
        <div className="check-solution">
          <h3>The answer</h3>
          {CHECK_KINDS[check.type].solution(check, result.solution)}
          <p className="check-explanation">{result.explanation}</p>
        </div>
        {when}
      </div>
    );
  }
  return (
    <div className="check-result right">
      <p className="check-verdict">
        <span className="check-burst">
          <Icon name="celebrate" size={20} />
        </span>{' '}
        Right!{result.xp_awarded > 0 ? ` +${result.xp_awarded} XP` : ''}
      </p>
      <p className="check-explanation">{result.explanation}</p>
      {when}
    </div>
  );
}
