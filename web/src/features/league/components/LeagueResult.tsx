import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { Dialog } from '@/components/Dialog';
import { api, data } from '@/lib/api';
import { leagueQueries } from '@/lib/league';
import { periodDays } from '@/lib/period';
import type { LeagueResult, MyLeague } from '@/lib/types';

/** What the celebration says, from the API's result: the title, the badge and the sentence. */
export function resultWords(result: LeagueResult): { title: string; badge: string; sentence: string } {
  const after = result.tier_after.name;
  const title = result.move === 'up' ? `You moved up to ${after}!` : result.move === 'down' ? `You moved down to ${after}` : `You stayed in ${after}`;
  const badge = result.move === 'up' ? '▲' : result.move === 'down' ? '▼' : '●';
  const sentence = `You finished ${ordinal(result.rank)} of ${result.members} in the ${result.tier_before.name} league.`;
  return { title, badge, sentence };
}

export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/** Whether the learner asked for less motion (no animation then); false where it cannot be asked. */
export function prefersReducedMotion(): boolean {
  return typeof window.matchMedia !== 'function' || window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

// Styles inline, as the league page's: a CSS file of the chunk would be named by the first visit's bundle.
const BADGE: CSSProperties = { fontSize: '3rem', lineHeight: 1, margin: '0.25rem 0', textAlign: 'center' };
const COLOUR = { up: 'var(--ok)', down: 'var(--bad)', stayed: 'var(--muted)' } as const;

/**
 * Last week's result, once: the league's `result` while the learner has not seen it, kept here
 * from its first read (the league read again after "seen" no longer carries it) until closed.
 */
export function LeagueResultCelebration({ league }: { league: MyLeague }) {
  const client = useQueryClient();
  const [shown, setShown] = useState<LeagueResult | null>(null);
  // The week closed here: the league in the cache may carry it a moment longer.
  const [closed, setClosed] = useState<string | null>(null);
  const incoming = league.result;
  if (incoming && incoming.week !== shown?.week && incoming.week !== closed) setShown(incoming);
  if (!shown) return null;
  const close = () => {
    setClosed(shown.week);
    setShown(null);
    client.setQueryData(leagueQueries.mine().queryKey, (cached) => (cached ? { ...cached, result: null } : cached));
  };
  return <ResultDialog key={shown.week} result={shown} onClose={close} />;
}

/** The dialog; it tells the server the result was seen as it opens, so no device shows it again. */
function ResultDialog({ result, onClose }: { result: LeagueResult; onClose: () => void }) {
  const { mutate } = useMutation({
    mutationFn: (week: string) => data(api.POST('/api/v1/me/league/result/seen', { body: { week } })),
  });
  const week = result.week;
  useEffect(() => {
    mutate(week);
  }, [mutate, week]);
  const badge = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    // A short rise of the badge, only for those who did not ask for less motion.
    if (prefersReducedMotion() || typeof badge.current?.animate !== 'function') return;
    badge.current.animate(
      [
        { transform: 'translateY(0.75rem) scale(0.6)', opacity: 0 },
        { transform: 'none', opacity: 1 },
      ],
      { duration: 600, easing: 'ease-out' },
    );
  }, []);
  const words = resultWords(result);
  return (
    <Dialog open title={words.title} onClose={onClose}>
      <p ref={badge} aria-hidden="true" style={{ ...BADGE, color: COLOUR[result.move] }}>
        {words.badge}
      </p>
      <p>
        <strong>{periodDays(result.week, result.week_last_day)}</strong>: {words.sentence}
      </p>
      {result.move === 'up' ? <p>This week you play in the {result.tier_after.name} league.</p> : null}
      {result.move === 'down' ? <p>Earn XP this week to climb back: the top of each league moves up.</p> : null}
      <div className="row">
        <button type="button" className="button" onClick={onClose} data-autofocus>
          Continue
        </button>
      </div>
    </Dialog>
  );
}
