import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorMessage } from '@/components/ErrorMessage';
import { Loading } from '@/components/Loading';
import { questQueries } from '@/lib/queries';
import { useDocumentTitle } from '@/lib/useDocumentTitle';

export function HomePage() {
  const quests = useQuery(questQueries.list());
  useDocumentTitle(null);
  return (
    <div>
      <h1>Quests</h1>
      {quests.isPending ? <Loading label="Loading quests…" /> : null}
      {quests.error ? <ErrorMessage error={quests.error} onRetry={() => void quests.refetch()} /> : null}
      {quests.data?.results.length === 0 ? <p>No quests yet: the curriculum has not been loaded.</p> : null}
      <ul className="cards">
        {quests.data?.results.map((quest) => (
          <li key={quest.slug} className="card">
            <h2>
              <Link to={`/quests/${quest.slug}`}>{quest.title}</Link>
            </h2>
            <p>{quest.description}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
