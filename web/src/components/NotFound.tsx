import { Link } from 'react-router';
import { useDocumentTitle } from '@/lib/useDocumentTitle';

/** A page, lesson or quest that does not exist: the way home, nothing to retry. */
export function NotFound({ what = 'page' }: { what?: string }) {
  useDocumentTitle('Not found');
  return (
    <div className="not-found">
      <h1>This {what} does not exist</h1>
      <p>The link may be mistyped, or the {what} may have been moved or removed.</p>
      <p>
        <Link to="/" className="button">
          Go to the quests
        </Link>
      </p>
    </div>
  );
}
