import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, NavLink } from 'react-router';
import { formatDateTime } from '@/lib/timeZones';
import { useTimeZone } from '@/lib/session';
import { reviewQueries } from '../api';

/** "5 to review" in a phrase: null when nothing is due. */
export function toReview(due: number): string | null {
  return due > 0 ? `${due} to review` : null;
}

/** The top bar's link to the Review page: "5 to review" when cards are due, else "Review". */
export function ReviewLink({ icon }: { icon?: ReactNode }) {
  const summary = useQuery(reviewQueries.summary());
  const due = summary.data?.due ?? 0;
  return (
    <NavLink to="/review" data-testid="review-link">
      {icon}
      {due > 0 ? (
        <span>
          <span className="count" data-testid="review-count">
            {due}
          </span>{' '}
          to review
        </span>
      ) : (
        <span>Review</span>
      )}
    </NavLink>
  );
}

/** The home page's card: how many cards are due and a way in, or when the next one is. */
export function ReviewsDueCard() {
  const summary = useQuery(reviewQueries.summary());
  const zone = useTimeZone();
  if (!summary.data) return null;
  const { due, next_due_at: next } = summary.data;
  if (due === 0 && !next) return null;
  return (
    <section className="card home-review" aria-labelledby="home-review-title">
      <h2 id="home-review-title">Review</h2>
      {due > 0 ? (
        <>
          <p data-testid="home-review-count">
            <strong>{toReview(due)}</strong>: checks you answered, asked again before you forget them.
          </p>
          <Link className="button" to="/review">
            Review now
          </Link>
        </>
      ) : (
        <p>Nothing to review now. The next card is due {next ? formatDateTime(next, zone) : 'later'}.</p>
      )}
    </section>
  );
}
