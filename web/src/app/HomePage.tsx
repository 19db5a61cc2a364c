import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorMessage } from '@/components/ErrorMessage';
import { Loading } from '@/components/Loading';
import { ProgressBar } from '@/components/ProgressBar';
import { useProgressHeader } from '@/features/progress/api';
import { ReviewsDueCard } from '@/features/reviews/components/ReviewLink';
import { useLessonStatuses, type LessonStatuses } from '@/lib/lessonStatus';
import { achievementQueries, questQueries } from '@/lib/queries';
import { useAuth, useTimeZone } from '@/lib/session';
import { formatDate } from '@/lib/timeZones';
import type { OutlineLesson, ProgressSummary, QuestDetail } from '@/lib/types';
import { useDocumentTitle } from '@/lib/useDocumentTitle';
import { Icon } from '@/components/Icon';

export function HomePage() {
  const quests = useQuery(questQueries.list());
  useDocumentTitle(null);
  // The learner's place in the first quest (the curriculum's lead quest) heads the page.
  const lead = quests.data?.results[0];
  const ListHeading = lead ? 'h2' : 'h1';
  return (
    <div className="home">
      {lead ? <LeadQuest slug={lead.slug} /> : null}
      <ListHeading>Quests</ListHeading>
      {quests.isPending ? <Loading label="Loading quests…" /> : null}
      {quests.error ? <ErrorMessage error={quests.error} onRetry={() => void quests.refetch()} /> : null}
      {quests.data?.results.length === 0 ? <p>No quests yet: the curriculum has not been loaded.</p> : null}
      <ul className="cards">
        {quests.data?.results.map((quest) => (
          <li key={quest.slug} className="card">
            <h3>
              <Link to={`/quests/${quest.slug}`}>{quest.title}</Link>
            </h3>
            <p>{quest.description}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The first lesson of the quest, in order, not completed yet; null when all are. */
function nextLesson(lessons: OutlineLesson[], completed: string[]): OutlineLesson | null {
  const done = new Set(completed);
  return lessons.find((lesson) => lesson.published && !done.has(lesson.slug)) ?? null;
}

/** "Start the quest" on a first visit; afterwards where to continue, today's goal and streak, recent achievements. */
function LeadQuest({ slug }: { slug: string }) {
  const { isAuthenticated } = useAuth();
  const progress = useProgressHeader(slug);
  const quest = useQuery(questQueries.detail(slug));
  const statuses = useLessonStatuses(quest.data?.lessons ?? [], progress.data?.completed_lessons);
  const error = progress.error ?? quest.error;
  if (error) {
    return (
      <ErrorMessage
        error={error}
        onRetry={() => {
          void progress.refetch();
          void quest.refetch();
        }}
      />
    );
  }
  if (!progress.data || !quest.data) return <Loading label="Loading your progress…" />;
  const summary = progress.data;
  const next = nextLesson(quest.data.lessons, summary.completed_lessons);
  // A learner who has answered a check has begun: no "Start the quest" for them.
  if (summary.lessons_completed === 0 && statuses.counts.started === 0 && next) return <FirstVisit quest={quest.data} first={next} />;
  return (
    <>
      <h1>Welcome back</h1>
      <div className="home-grid">
        <ContinueCard quest={quest.data} summary={summary} next={next} statuses={statuses} />
        <TodayCard summary={summary} signedIn={isAuthenticated} />
        {isAuthenticated ? <ReviewsDueCard /> : null}
        <RecentAchievements signedIn={isAuthenticated} />
      </div>
    </>
  );
}

function FirstVisit({ quest, first }: { quest: QuestDetail; first: OutlineLesson }) {
  const xp = quest.lessons.reduce((sum, lesson) => sum + lesson.xp, 0);
  return (
    <section className="card home-start" aria-labelledby="home-start-title">
      <h1 id="home-start-title">{quest.title}</h1>
      <p>{quest.description}</p>
      <p className="muted">
        {quest.lessons.length} lessons · {xp} XP to earn · first up: {first.title}
      </p>
      <Link className="button big" to={`/lessons/${first.slug}`}>
        Start the quest
      </Link>
    </section>
  );
}

/** How many lessons at most the card lists as started. */
const STARTED_SHOWN = 5;

function ContinueCard({ quest, summary, next, statuses }: { quest: QuestDetail; summary: ProgressSummary; next: OutlineLesson | null; statuses: LessonStatuses }) {
  const { done, started, untouched } = statuses.counts;
  const inProgress = quest.lessons.filter((lesson) => statuses.of(lesson.slug) === 'started' && lesson.slug !== next?.slug).slice(0, STARTED_SHOWN);
  return (
    <section className="card home-continue" aria-labelledby="home-continue-title">
      <h2 id="home-continue-title">{next ? 'Continue' : 'Quest complete'}</h2>
      {next ? (
        <Link className="button big" to={`/lessons/${next.slug}`}>
          Continue: {next.title}
          {statuses.of(next.slug) === 'started' ? ' (started)' : ''}
        </Link>
      ) : (
        <p>
          You completed every lesson of <Link to={`/quests/${quest.slug}`}>{quest.title}</Link>.
        </p>
      )}
      <p>
        <Link to={`/quests/${quest.slug}`}>{quest.title}</Link>: <strong>{summary.percent_complete}% done</strong> · {summary.lessons_completed}/
        {summary.lessons_total} lessons
      </p>
      <ProgressBar value={summary.lessons_completed} max={summary.lessons_total} label={`${quest.title}: ${summary.percent_complete}% done`} />
      <p data-testid="lesson-counts">
        {done} done · {started} started · {untouched} untouched
      </p>
      {inProgress.length ? (
        <>
          <h3 id="home-started-title">
            Also started
          </h3>
          <ul aria-labelledby="home-started-title">
            {inProgress.map((lesson) => (
              <li key={lesson.slug}>
                <Link to={`/lessons/${lesson.slug}`}>{lesson.title}</Link>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

const STREAK_TODAY: Record<ProgressSummary['streak']['today'], string> = {
  done: 'today is done',
  to_do: 'learn today to keep it',
  frozen: 'a freeze kept it over the days missed',
  none: '',
};

function TodayCard({ summary, signedIn }: { summary: ProgressSummary; signedIn: boolean }) {
  if (!signedIn) {
    return (
      <section className="card home-today" aria-labelledby="home-today-title">
        <h2 id="home-today-title">Today</h2>
        <p>Your progress is kept on this device.</p>
        <p>
          <Link to="/signup">Create an account</Link> or <Link to="/signin">sign in</Link> to set a daily goal, keep a streak and
          earn achievements.
        </p>
      </section>
    );
  }
  const { daily_goal: goal, streak } = summary;
  return (
    <section className="card home-today" aria-labelledby="home-today-title">
      <h2 id="home-today-title">Today</h2>
      {goal.xp ? (
        <>
          <p>
            Daily goal: <strong>{goal.xp_today}</strong> of {goal.xp} XP{goal.met ? ' · met ✓' : ''}
          </p>
          <ProgressBar value={Math.min(goal.xp_today, goal.xp)} max={goal.xp} label="Today's XP toward the daily goal" />
        </>
      ) : (
        <p>
          Today: <strong>{goal.xp_today} XP</strong>. <Link to="/settings#daily-goal">Set a daily goal</Link>
        </p>
      )}
      <p data-testid="home-streak">
        {streak.current > 0 ? (
          <>
            <strong>
              {streak.current}-day streak
            </strong>
            {STREAK_TODAY[streak.today] ? ` · ${STREAK_TODAY[streak.today]}` : ''}
          </>
        ) : (
          'No streak yet: complete a lesson today to start one'
        )}
      </p>
      {streak.freezes > 0 || streak.best > streak.current ? (
        <p className="muted">
          {streak.freezes > 0 ? `${streak.freezes} streak freeze${streak.freezes === 1 ? '' : 's'} held` : ''}
          {streak.freezes > 0 && streak.best > streak.current ? ' · ' : ''}
          {streak.best > streak.current ? `best: ${streak.best} days` : ''}
        </p>
      ) : null}
      <p>
        <Link to="/progress">Your last 12 weeks</Link>
      </p>
    </section>
  );
}

function RecentAchievements({ signedIn }: { signedIn: boolean }) {
  const achievements = useQuery({ ...achievementQueries.list(), enabled: signedIn });
  const zone = useTimeZone();
  const recent = (achievements.data?.results ?? [])
    .filter((achievement) => achievement.unlocked && achievement.unlocked_at)
    .sort((a, b) => (b.unlocked_at ?? '').localeCompare(a.unlocked_at ?? ''))
    .slice(0, 3);
  return (
    <section className="card home-achievements" aria-labelledby="home-achievements-title">
      <h2 id="home-achievements-title">Recent achievements</h2>
      {!signedIn ? (
        <p>Achievements are earned with an account.</p>
      ) : achievements.error ? (
        <ErrorMessage error={achievements.error} onRetry={() => void achievements.refetch()} />
      ) : achievements.isPending ? (
        <Loading label="Loading achievements…" />
      ) : recent.length === 0 ? (
        <p>None yet.</p>
      ) : (
        <ul className="recent-achievements">
          {recent.map((achievement) => (
            <li key={achievement.slug}>
              <Icon name="trophy" className="inline-icon" /> 
              <strong>{achievement.title}</strong>{' '}
              <span className="muted">{formatDate(achievement.unlocked_at ?? '', zone)}</span>
            </li>
          ))}
        </ul>
      )}
      <p>
        <Link to="/achievements">{signedIn ? 'All achievements' : 'See your progress toward them'}</Link>
      </p>
    </section>
  );
}
