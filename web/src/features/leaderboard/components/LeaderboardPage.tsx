import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { ErrorMessage } from '@/components/ErrorMessage';
import { Loading } from '@/components/Loading';
import { leaderboardQueries } from '@/lib/queries';
import { useAuth } from '@/lib/session';
import type { LeaderboardPeriod } from '@/lib/types';
import { useDocumentTitle } from '@/lib/useDocumentTitle';
import { periodDays, timeLeft } from '@/lib/period';
import { NameInvitation } from './NameInvitation';

const PERIODS: { value: LeaderboardPeriod; label: string }[] = [
  { value: 'week', label: 'This week' },
  { value: 'month', label: 'This month' },
  { value: 'all', label: 'All time' },
];

export function LeaderboardPage() {
  const [params, setParams] = useSearchParams();
  const period = (PERIODS.find((option) => option.value === params.get('period'))?.value ?? 'week') as LeaderboardPeriod;
  const board = useQuery(leaderboardQueries.board(period));
  const { isAuthenticated } = useAuth();
  useDocumentTitle('Leaderboard');
  return (
    <div>
      <h1>Leaderboard</h1>
      {isAuthenticated ? <NameInvitation /> : null}
      <div className="segmented" role="group" aria-label="Period">
        {PERIODS.map((option) => (
          <button
            key={option.value}
            type="button"
            aria-pressed={period === option.value}
            onClick={() => setParams({ period: option.value })}
          >
            {option.label}
          </button>
        ))}
      </div>
      {board.isPending ? <Loading label="Loading the leaderboard…" /> : null}
      {board.error ? <ErrorMessage error={board.error} onRetry={() => void board.refetch()} /> : null}
      {board.data ? (
        <>
          {board.data.first_day && board.data.last_day && board.data.ends_at ? (
            <p className="muted board-period">
              {periodDays(board.data.first_day, board.data.last_day)} · {timeLeft(board.data.ends_at)}
            </p>
          ) : null}
          {board.data.me ? (
            <p className="me-rank">
              Your rank: <strong>#{board.data.me.rank}</strong> with {board.data.me.xp} XP
              {!board.data.me.on_leaderboard ? ' (hidden from others: see Settings)' : ''}
            </p>
          ) : null}
          {board.data.entries.length === 0 ? (
            <p className="muted">No one has earned XP in this period yet.</p>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Top learners by XP</caption>
                <thead>
                  <tr>
                    <th scope="col">Rank</th>
                    <th scope="col">Learner</th>
                    <th scope="col">XP</th>
                  </tr>
                </thead>
                <tbody>
                  {board.data.entries.map((entry) => (
                    <tr key={entry.user_id} className={entry.is_me ? 'is-me' : undefined} aria-current={entry.is_me ? 'true' : undefined}>
                      <td>{entry.rank}</td>
                      <td>
                        {entry.display_name}
                        {entry.is_me ? ' (you)' : ''}
                      </td>
                      <td>{entry.xp}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      ) : null}
    </div>
  );
}
