import { useQuery } from '@tanstack/react-query';
import { Fragment, type CSSProperties } from 'react';
import { Link } from 'react-router';
import { ErrorMessage } from '@/components/ErrorMessage';
import { Loading } from '@/components/Loading';
import { periodDays, timeLeft } from '@/lib/period';
import { profileQuery } from '@/lib/profile';
import { useAuth } from '@/lib/session';
import type { LeagueMember, MyLeague } from '@/lib/types';
import { useDocumentTitle } from '@/lib/useDocumentTitle';
import { leagueQueries, useSetParticipation } from '@/lib/league';
import { LeagueResultCelebration } from './LeagueResult';

/** The learner's weekly league: their cohort ranked, the lines of who moves up and down, and the time left. */
export function LeaguePage() {
  const auth = useAuth();
  const league = useQuery({ ...leagueQueries.mine(), enabled: auth.isAuthenticated });
  useDocumentTitle(league.data ? `${league.data.tier.name} league` : 'League');
  if (auth.isPending) return <Loading />;
  if (auth.error) return <ErrorMessage error={auth.error} onRetry={() => void auth.refetch()} />;
  if (!auth.isAuthenticated) return <SignedOut />;
  return (
    <div className="league">
      {league.isPending ? (
        <>
          <h1>League</h1>
          <Loading label="Loading your league…" />
        </>
      ) : null}
      {league.error ? (
        <>
          <h1>League</h1>
          <ErrorMessage error={league.error} onRetry={() => void league.refetch()} />
        </>
      ) : null}
      {league.data ? <League league={league.data} /> : null}
    </div>
  );
}

function SignedOut() {
  return (
    <div className="league">
      <h1>Weekly leagues</h1>
      <p>
        Each week, learners who earn XP are ranked in a weekly league: the top move up a tier, the bottom move down. Others see you by your
        display name only.
      </p>
      <p>
        <Link to="/signin?next=%2Fleague">Sign in</Link> or <Link to="/signup">sign up</Link> to join leagues.
      </p>
    </div>
  );
}

function League({ league }: { league: MyLeague }) {
  const title = `${league.tier.name} league`;
  return (
    <>
      <LeagueResultCelebration league={league} />
      <h1>{title}</h1>
      <p className="muted">
        {periodDays(league.week_first_day, league.week_last_day)} · {timeLeft(league.ends_at)}
      </p>
      {!league.participating ? (
        <NotParticipating />
      ) : league.waiting ? (
        <p className="note" role="status">
          Your XP this week counts. You join your league as soon as last week’s results are in.
        </p>
      ) : !league.placed ? (
        <p className="note">
          Earn XP this week to join a {title} of {league.cohort_size}. <Link to="/">Go to a lesson</Link>
        </p>
      ) : (
        <Cohort league={league} title={title} />
      )}
    </>
  );
}

function NotParticipating() {
  const join = useSetParticipation();
  return (
    <section className="card" aria-labelledby="league-out-title">
      <h2 id="league-out-title">You left the leagues</h2>
      <p>You are in no league and others don’t see you in one. Join again and your XP of this week places you in this week’s league.</p>
      {join.error ? <ErrorMessage error={join.error} /> : null}
      <button type="button" className="button" disabled={join.isPending} onClick={() => join.mutate(true)}>
        {join.isPending ? 'Joining…' : 'Join the leagues again'}
      </button>
    </section>
  );
}

type Zone = 'up' | 'down' | null;

// Styles inline, not a stylesheet: a CSS file of its own would be one more file the main bundle
// names, and the first visit is at its budget (docs/performance.md). The colours are the theme's.
const COLOUR = { up: { color: 'var(--ok)', background: 'var(--ok-bg)' }, down: { color: 'var(--bad)', background: 'var(--bad-bg)' } } as const;
const NUMBER: CSSProperties = { width: '1%', whiteSpace: 'nowrap', textAlign: 'right' };
const LINE: CSSProperties = { padding: '0.2rem 0.5rem', fontSize: '0.8rem', fontWeight: 700, textTransform: 'uppercase', letterSpacing: '0.03em' };

function zoneOf(rank: number, league: MyLeague): Zone {
  if (league.promotion_line !== null && rank <= league.promotion_line) return 'up';
  if (league.demotion_line !== null && rank >= league.demotion_line) return 'down';
  return null;
}

const ZONE_NAME = { up: 'promotion zone', down: 'demotion zone' } as const;

function Cohort({ league, title }: { league: MyLeague; title: string }) {
  const { members, promotion_line: up, demotion_line: down } = league;
  const me = members.find((member) => member.you);
  const movingDown = down === null ? 0 : members.length - down + 1;
  const meZone = me ? zoneOf(me.rank, league) : null;
  return (
    <>
      {me ? (
        <p className="me-rank">
          You are <strong>#{me.rank}</strong> of {members.length} with {me.xp} XP{meZone ? `, in the ${ZONE_NAME[meZone]}` : ''}.
        </p>
      ) : null}
      <p className="muted">
        {up !== null ? `The top ${up} move up a tier at the week’s end` : 'Nobody moves up from this tier'}
        {down !== null ? `; the bottom ${movingDown} move down.` : '.'}
      </p>
      <div className="table-wrap">
        <table style={{ width: '100%' }}>
          <caption className="visually-hidden">{title} this week, ranked by XP</caption>
          <thead>
            <tr>
              <th scope="col" style={NUMBER}>
                Rank
              </th>
              <th scope="col">Learner</th>
              <th scope="col" style={NUMBER}>
                XP
              </th>
            </tr>
          </thead>
          <tbody>
            {members.map((member) => (
              <Fragment key={member.rank}>
                {down !== null && member.rank === down ? <Line zone="down" text={`Demotion zone: the bottom ${movingDown} move down`} /> : null}
                <Row member={member} zone={zoneOf(member.rank, league)} />
                {up !== null && member.rank === up && up < members.length ? <Line zone="up" text={`Promotion zone: the top ${up} move up`} /> : null}
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
      <SeenAs />
    </>
  );
}

/** How the others in the league see the learner: their public name (the profile Settings edits), never their e-mail. */
function SeenAs() {
  const profile = useQuery(profileQuery());
  if (!profile.data) return null;
  return (
    <p className="muted">
      Others in your league see you as <strong>{profile.data.public_name}</strong>, never by your e-mail.{' '}
      <Link to="/settings">Change your name</Link>
    </p>
  );
}

function Row({ member, zone }: { member: LeagueMember; zone: Zone }) {
  return (
    <tr className={member.you ? 'is-me' : undefined} aria-current={member.you ? 'true' : undefined}>
      <td style={zone ? { ...NUMBER, color: COLOUR[zone].color, fontWeight: 700 } : NUMBER}>{member.rank}</td>
      <td style={{ overflowWrap: 'anywhere' }}>
        {member.display_name}
        {member.you ? <strong> (you)</strong> : null}
      </td>
      <td style={NUMBER}>{member.xp}</td>
    </tr>
  );
}

/** A row across the table that draws a line and says what it means (read out in the table's order). */
function Line({ zone, text }: { zone: 'up' | 'down'; text: string }) {
  return (
    <tr>
      <td colSpan={3} style={{ ...LINE, ...COLOUR[zone], [zone === 'up' ? 'borderTop' : 'borderBottom']: `2px dashed ${COLOUR[zone].color}` }}>
        <span aria-hidden="true">{zone === 'up' ? '▲ ' : '▼ '}</span>
        {text}
      </td>
    </tr>
  );
}
