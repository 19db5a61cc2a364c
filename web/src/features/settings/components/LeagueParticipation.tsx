import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage } from '@/components/ErrorMessage';
import { Loading } from '@/components/Loading';
import { useToast } from '@/components/Toasts';
import { leagueQueries, useSetParticipation } from '@/lib/league';

/** Settings: take part in the weekly leagues or leave them (PUT /me/league/participation), saved on change. */
export function LeagueParticipation() {
  const league = useQuery(leagueQueries.mine());
  const save = useSetParticipation();
  const toast = useToast();
  const participating = league.data?.participating;
  // While the change is saved the box shows it (set in the click's own render); a refusal puts
  // back what the server has.
  const [choice, setChoice] = useState<boolean | null>(null);
  const shown = choice ?? participating;
  return (
    <section className="card" aria-labelledby="league-settings-title">
      <h2 id="league-settings-title">Weekly leagues</h2>
      {league.isPending ? <Loading label="Loading your league…" /> : null}
      {league.error ? <ErrorMessage error={league.error} onRetry={() => void league.refetch()} /> : null}
      {participating !== undefined ? (
        <>
          <div className="toggle">
            <input
              id="league-participation"
              type="checkbox"
              checked={shown}
              disabled={save.isPending}
              aria-describedby="league-participation-help"
              onChange={(event) => {
                const next = event.target.checked;
                setChoice(next);
                save.mutate(next, {
                  onSuccess: () => toast.show({ title: next ? 'You joined the weekly leagues' : 'You left the weekly leagues', tone: 'success' }),
                  onSettled: () => setChoice(null),
                });
              }}
            />
            <label htmlFor="league-participation">Take part in weekly leagues</label>
          </div>
          <p className="field-help muted" id="league-participation-help">
            {save.isPending
              ? 'Saving…'
              : participating
                ? 'Now: you take part. Your first XP each week places you in a league; others see your display name, never your e-mail.'
                : 'Now: you are out of the leagues. You are in no league and off this week’s list.'}
          </p>
        </>
      ) : null}
      {save.error ? <ErrorMessage error={save.error} /> : null}
    </section>
  );
}
