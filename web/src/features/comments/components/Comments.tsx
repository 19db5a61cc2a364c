import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { CharCount, charCount } from '@/components/CharCount';
import { Dialog } from '@/components/Dialog';
import { ErrorMessage, FieldError, FormError } from '@/components/ErrorMessage';
import { Loading } from '@/components/Loading';
import { useOnline } from '@/lib/offline';
import { useTimeZone } from '@/lib/session';
import { formatDateTime } from '@/lib/timeZones';
import type { Comment, Subscription, Thread } from '@/lib/types';
import { commentQueries, useDeleteComment, useEditComment, usePostComment, useSetSubscription } from '../api';
import rules from '@/lib/rules.json';

const USER_INPUT = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;
/** The server's limit (community.models.COMMENT_MAX_LENGTH, through lib/rules.json). */
export const COMMENT_MAX_LENGTH = rules.comment_max_length;

/** `load` false: the section and its loading line only, the comments not asked for yet. */
export function Comments({ lesson, signedIn, load = true }: { lesson: string; signedIn: boolean; load?: boolean }) {
  const threads = useInfiniteQuery({ ...commentQueries.threads(lesson), enabled: load });
  const location = useLocation();
  const loaded = threads.isSuccess;

  // Notification links end in #comment-<id>: bring that comment into view once it is there,
  // and keep it there while parts above it (the exercise, code) finish loading, until the
  // learner scrolls or types themselves.
  useEffect(() => {
    if (!loaded || !location.hash.startsWith('#comment-')) return;
    const target = document.getElementById(location.hash.slice(1));
    if (!target) return;
    const reveal = () => target.scrollIntoView({ block: 'center' });
    reveal();
    target.focus({ preventScroll: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(reveal);
    observer?.observe(document.body);
    const stop = () => {
      observer?.disconnect();
      for (const type of USER_INPUT) window.removeEventListener(type, stop);
    };
    for (const type of USER_INPUT) window.addEventListener(type, stop, { passive: true });
    const timer = window.setTimeout(stop, 5000);
    return () => {
      window.clearTimeout(timer);
      stop();
    };
  }, [loaded, location.hash]);

  const wanted = location.hash.startsWith('#comment-') ? Number(location.hash.slice('#comment-'.length)) : null;
  const shown = new Set(
    threads.data?.pages.flatMap((page) => page.results.flatMap((thread) => [thread.id, ...thread.replies.map((reply) => reply.id)])) ?? [],
  );
  // Only said when every comment is on the page (no more pages, no folded replies).
  const complete = !threads.hasNextPage && !threads.data?.pages.some((page) => page.results.some((thread) => thread.reply_count > thread.replies.length));
  const wantedMissing = wanted !== null && loaded && complete && !shown.has(wanted);

  return (
    <section className="comments" aria-labelledby="comments-title">
      <div className="section-head">
        <h2 id="comments-title">Comments</h2>
        {signedIn ? <FollowToggle lesson={lesson} /> : null}
      </div>
      {signedIn ? (
        <CommentForm lesson={lesson} label="Add a comment" submitLabel="Post comment" />
      ) : (
        <p className="note">
          <Link to={`/signin?next=${encodeURIComponent(location.pathname)}`}>Sign in</Link> to join the discussion.
        </p>
      )}
      {wantedMissing ? (
        <p className="note" role="status">
          The comment you followed is no longer here: it was deleted.
        </p>
      ) : null}
      {threads.isPending && threads.fetchStatus === 'paused' ? (
        <p className="note" role="status">
          You are offline: the comments load when you are back online.
        </p>
      ) : threads.isPending ? (
        <Loading label="Loading comments…" />
      ) : null}
      {threads.error ? <ErrorMessage error={threads.error} onRetry={() => void threads.refetch()} /> : null}
      {threads.data ? (
        threads.data.pages[0].count === 0 ? (
          <p className="muted">No comments yet.</p>
        ) : (
          <ol className="thread-list">
            {threads.data.pages.flatMap((page) => page.results).map((thread) => (
              <ThreadView key={thread.id} thread={thread} lesson={lesson} signedIn={signedIn} />
            ))}
          </ol>
        )
      ) : null}
      {threads.hasNextPage ? (
        <button type="button" className="button secondary" onClick={() => void threads.fetchNextPage()} disabled={threads.isFetchingNextPage}>
          {threads.isFetchingNextPage ? 'Loading…' : 'More comments'}
        </button>
      ) : null}
    </section>
  );
}

/** What following the lesson means for this learner now, and what commenting would change. */
function followHint({ following, explicit, follows_on_comment }: Subscription): string {
  if (following) {
    return explicit ? 'On: you chose to follow this lesson.' : 'On because you commented here (your setting: follow the lessons I comment on).';
  }
  if (explicit === false) return 'Off: you stopped following this lesson, so not even replies to your comments notify you.';
  if (follows_on_comment) return 'Off. Posting a comment here turns it on.';
  return 'Off: your settings do not follow the lessons you comment on (your setting: follow the lessons I comment on).';
}

function FollowToggle({ lesson }: { lesson: string }) {
  const subscription = useQuery(commentQueries.subscription(lesson));
  const setSubscription = useSetSubscription(lesson);
  const id = useId();
  if (subscription.isPending) return <Loading label="Loading…" />;
  if (subscription.error) return <ErrorMessage error={subscription.error} onRetry={() => void subscription.refetch()} />;
  return (
    <div className="follow">
      <div className="toggle">
        <input
          id={id}
          type="checkbox"
          checked={subscription.data.following}
          disabled={setSubscription.isPending}
          onChange={(event) => setSubscription.mutate(event.target.checked)}
          aria-describedby={`${id}-hint`}
        />
        <label htmlFor={id}>Notify me of new comments and replies</label>
      </div>
      <p className="field-help muted" id={`${id}-hint`}>
        {followHint(subscription.data)}
      </p>
      {setSubscription.error ? <ErrorMessage error={setSubscription.error} /> : null}
    </div>
  );
}

function ThreadView({ thread, lesson, signedIn }: { thread: Thread; lesson: string; signedIn: boolean }) {
  const [showAll, setShowAll] = useState(false);
  const all = useQuery({ ...commentQueries.replies.of(thread), enabled: showAll });
  const replies = showAll && all.data ? all.data : thread.replies;
  const hidden = thread.reply_count - thread.replies.length;
  return (
    <li>
      <CommentView comment={thread} lesson={lesson} signedIn={signedIn} />
      {replies.length > 0 ? (
        <ol className="reply-list" aria-label={`Replies to ${thread.author?.name ?? 'comment'}`}>
          {replies.map((reply) => (
            <li key={reply.id}>
              <CommentView comment={reply} lesson={lesson} signedIn={signedIn} />
            </li>
          ))}
        </ol>
      ) : null}
      {hidden > 0 && !showAll ? (
        <button type="button" className="link-button" onClick={() => setShowAll(true)}>
          Show all {thread.reply_count} replies
        </button>
      ) : null}
      {all.isFetching ? <Loading label="Loading replies…" /> : null}
      {all.error ? <ErrorMessage error={all.error} onRetry={() => void all.refetch()} /> : null}
    </li>
  );
}

function CommentView({ comment, lesson, signedIn }: { comment: Comment; lesson: string; signedIn: boolean }) {
  const [mode, setMode] = useState<'view' | 'edit' | 'reply'>('view');
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteComment(lesson);
  const zone = useTimeZone();
  const self = useRef<HTMLElement>(null);
  // Back from the editor: focus returns to the comment rather than to the page's top.
  const backToView = () => {
    setMode('view');
    self.current?.focus({ preventScroll: true });
  };
  return (
    <article ref={self} className="comment" id={`comment-${comment.id}`} tabIndex={-1} aria-label={`Comment by ${comment.author?.name ?? 'deleted'}`}>
      <header>
        <strong dir="auto">{comment.author?.name ?? '[deleted]'}</strong>
        {comment.reply_to ? <span className="muted"> replying to <bdi>{comment.reply_to.author}</bdi></span> : null}{' '}
        <time dateTime={comment.created_at} className="muted">
          {formatDateTime(comment.created_at, zone)}
        </time>
        {comment.is_edited ? <span className="muted"> (edited)</span> : null}
      </header>
      {mode === 'edit' ? (
        <CommentForm lesson={lesson} editing={comment} label="Edit your comment" submitLabel="Save" onDone={backToView} />
      ) : comment.is_deleted ? (
        <p className="muted">[deleted]</p>
      ) : (
        <div className="prose" dir="auto" dangerouslySetInnerHTML={{ __html: comment.body_html }} />
      )}
      {!comment.is_deleted && mode === 'view' ? (
        <div className="comment-actions">
          {signedIn ? (
            <button type="button" className="link-button" onClick={() => setMode('reply')}>
              Reply
            </button>
          ) : null}
          {comment.is_author ? (
            <>
              <button type="button" className="link-button" onClick={() => setMode('edit')}>
                Edit
              </button>
              <button type="button" className="link-button danger" disabled={remove.isPending} onClick={() => setConfirming(true)}>
                Delete
              </button>
            </>
          ) : null}
        </div>
      ) : null}
      <Dialog open={confirming} title="Delete this comment?" onClose={() => setConfirming(false)}>
        <p>It is replaced by “[deleted]” for everyone; replies to it stay. This cannot be undone.</p>
        <div className="row">
          <button
            type="button"
            className="button danger"
            disabled={remove.isPending}
            onClick={() => remove.mutate(comment.id, { onSettled: () => setConfirming(false) })}
          >
            {remove.isPending ? 'Deleting…' : 'Delete comment'}
          </button>
          <button type="button" className="button secondary" onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </div>
      </Dialog>
      {remove.error ? <ErrorMessage error={remove.error} /> : null}
      {mode === 'reply' ? (
        <CommentForm
          lesson={lesson}
          parent={comment.id}
          label={`Reply to ${comment.author?.name ?? 'comment'}`}
          submitLabel="Post reply"
          onDone={backToView}
        />
      ) : null}
    </article>
  );
}

interface FormProps {
  lesson: string;
  label: string;
  submitLabel: string;
  parent?: number;
  editing?: Comment;
  onDone?: () => void;
}

function CommentForm({ lesson, label, submitLabel, parent, editing, onDone }: FormProps) {
  const [body, setBody] = useState(editing?.body ?? '');
  const post = usePostComment(lesson);
  const edit = useEditComment(lesson);
  const mutation = editing ? edit : post;
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const tooLong = charCount(body) > COMMENT_MAX_LENGTH;
  const online = useOnline();
  const reason = !online
    ? 'You are offline: comments can be sent again once you are back online.'
    : tooLong
      ? 'Shorten the comment to send it.'
      : !body.trim()
        ? 'Write something to send.'
        : null;

  // Edit and Reply open the editor where the learner is: the caret goes into it, at the end.
  const opened = Boolean(onDone);
  useEffect(() => {
    const textarea = box.current;
    if (!opened || !textarea) return;
    textarea.focus();
    textarea.setSelectionRange(textarea.value.length, textarea.value.length);
  }, [opened]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (reason) return;
    const done = () => {
      setBody('');
      onDone?.();
    };
    if (editing) edit.mutate({ id: editing.id, body }, { onSuccess: done });
    else post.mutate(parent ? { body, parent } : { body }, { onSuccess: done });
  };

  return (
    <form className="form comment-form" onSubmit={onSubmit} noValidate>
      <label htmlFor={id}>{label}</label>
      <textarea
        ref={box}
        id={id}
        value={body}
        onChange={(event) => setBody(event.target.value)}
        rows={3}
        dir="auto"
        aria-invalid={tooLong}
        aria-describedby={`${id}-count ${id}-error`}
      />
      <CharCount text={body} max={COMMENT_MAX_LENGTH} id={`${id}-count`} />
      <FieldError error={mutation.error} field="body" id={`${id}-error`} />
      <div className="row">
        <button type="submit" className="button" disabled={mutation.isPending || reason !== null}>
          {mutation.isPending ? 'Saving…' : submitLabel}
        </button>
        {onDone ? (
          <button type="button" className="button secondary" onClick={onDone}>
            Cancel
          </button>
        ) : null}
        {reason ? <span className="muted">{reason}</span> : null}
      </div>
      <FormError error={mutation.error} fields={['body']} />
    </form>
  );
}
