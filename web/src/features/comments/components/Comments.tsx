import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { ErrorMessage, FieldError } from '@/components/ErrorMessage';
import { Loading } from '@/components/Loading';
import type { Comment, Thread } from '@/lib/types';
import { commentQueries, useDeleteComment, useEditComment, usePostComment, useSetSubscription } from '../api';

const USER_INPUT = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;

export function Comments({ lesson, signedIn }: { lesson: string; signedIn: boolean }) {
  const threads = useInfiniteQuery(commentQueries.threads(lesson));
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
      {threads.isPending ? <Loading label="Loading comments…" /> : null}
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

function FollowToggle({ lesson }: { lesson: string }) {
  const subscription = useQuery(commentQueries.subscription(lesson));
  const setSubscription = useSetSubscription(lesson);
  const id = useId();
  if (subscription.isPending) return <Loading label="Loading…" />;
  if (subscription.error) return <ErrorMessage error={subscription.error} onRetry={() => void subscription.refetch()} />;
  return (
    <div className="toggle">
      <input
        id={id}
        type="checkbox"
        checked={subscription.data.following}
        disabled={setSubscription.isPending}
        onChange={(event) => setSubscription.mutate(event.target.checked)}
      />
      <label htmlFor={id}>Notify me of replies</label>
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
  const remove = useDeleteComment(lesson);
  const when = new Date(comment.created_at);
  return (
    <article className="comment" id={`comment-${comment.id}`} tabIndex={-1} aria-label={`Comment by ${comment.author?.name ?? 'deleted'}`}>
      <header>
        <strong>{comment.author?.name ?? '[deleted]'}</strong>
        {comment.reply_to ? <span className="muted"> replying to {comment.reply_to.author}</span> : null}{' '}
        <time dateTime={comment.created_at} className="muted">
          {when.toLocaleString()}
        </time>
        {comment.is_edited ? <span className="muted"> (edited)</span> : null}
      </header>
      {mode === 'edit' ? (
        <CommentForm
          lesson={lesson}
          editing={comment}
          label="Edit your comment"
          submitLabel="Save"
          onDone={() => setMode('view')}
        />
      ) : comment.is_deleted ? (
        <p className="muted">[deleted]</p>
      ) : (
        <div className="prose" dangerouslySetInnerHTML={{ __html: comment.body_html }} />
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
              <button
                type="button"
                className="link-button danger"
                disabled={remove.isPending}
                onClick={() => {
                  if (window.confirm('Delete this comment?')) remove.mutate(comment.id);
                }}
              >
                Delete
              </button>
            </>
          ) : null}
        </div>
      ) : null}
      {remove.error ? <ErrorMessage error={remove.error} /> : null}
      {mode === 'reply' ? (
        <CommentForm
          lesson={lesson}
          parent={comment.id}
          label={`Reply to ${comment.author?.name ?? 'comment'}`}
          submitLabel="Post reply"
          onDone={() => setMode('view')}
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

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const done = () => {
      setBody('');
      onDone?.();
    };
    if (editing) edit.mutate({ id: editing.id, body }, { onSuccess: done });
    else post.mutate(parent ? { body, parent } : { body }, { onSuccess: done });
  };

  return (
    <form className="form comment-form" onSubmit={onSubmit}>
      <label htmlFor={id}>{label}</label>
      <textarea id={id} value={body} onChange={(event) => setBody(event.target.value)} rows={3} required aria-describedby={`${id}-error`} />
      <FieldError error={mutation.error} field="body" id={`${id}-error`} />
      <div className="row">
        <button type="submit" className="button" disabled={mutation.isPending || !body.trim()}>
          {mutation.isPending ? 'Saving…' : submitLabel}
        </button>
        {onDone ? (
          <button type="button" className="button secondary" onClick={onDone}>
            Cancel
          </button>
        ) : null}
      </div>
      {mutation.error ? <ErrorMessage error={mutation.error} /> : null}
    </form>
  );
}
