import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useDocumentTitle } from '@/lib/useDocumentTitle';

/** A page that cannot be shown here, why, and the way home. */
export function Unavailable({ title, heading, children, status = false }: { title: string; heading: string; children: ReactNode; status?: boolean }) {
  useDocumentTitle(title);
  return (
    <div className="not-found" role={status ? 'status' : undefined}>
      <h1>{heading}</h1>
      <p>{children}</p>
      <p>
        <Link to="/" className="button">
          Go to the quests
        </Link>
      </p>
    </div>
  );
}

/** A page, lesson or quest that does not exist: the way home, nothing to retry. */
export function NotFound({ what = 'page' }: { what?: string }) {
  return (
    <Unavailable title="Not found" heading={`This ${what} does not exist`}>
      The link may be mistyped, or the {what} may have been moved or removed.
    </Unavailable>
  );
}
