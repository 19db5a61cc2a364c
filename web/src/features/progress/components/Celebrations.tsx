import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Dialog } from '@/components/Dialog';
import { ErrorMessage } from '@/components/ErrorMessage';
import { GoalPicker } from '@/components/GoalPicker';
import { useToast } from '@/components/Toasts';
import { claim, observe, ownerOf, settle, useCelebrationQueue, useCompletedNow, withDescriptions, type Celebration, type Owner } from '@/lib/celebrations';
import { dayIn } from '@/lib/timeZones';
import { useSetDailyGoal, type GoalXp } from '@/lib/dailyGoal';
import { levelFor, levelLabel } from '@/lib/header';
import { onSynced } from '@/lib/progressSync';
import { achievementQueries, progressQueries } from '@/lib/queries';
import { sessionQuery, useAuth } from '@/lib/session';
import { useGameState } from '../api';

/**
 * Shows what the learner just earned (a level-up dialog; achievement and daily-goal toasts),
 * watches their progress for what arrived another way (a graded exercise, a sync), and asks for
 * a daily goal once after a completion.
 */
export function Celebrations({ quest, ready }: { quest: string; ready: boolean }) {
  const queue = useCelebrationQueue();
  const toast = useToast();
  useCelebrationWatcher(quest, ready);

  // Achievements and goals become toasts (they stack); a level-up waits in the queue for its dialog.
  useEffect(() => {
    for (const item of queue) {
      if (item.kind === 'level') continue;
      toast.show(toastFor(item));
      settle(item.key);
    }
  }, [queue, toast]);

  const levelUp = queue.find((item) => item.kind === 'level');
  return (
    <>
      {levelUp ? <LevelUpDialog celebration={levelUp} onClose={() => settle(levelUp.key)} /> : <GoalPrompt quest={quest} ready={ready} />}
    </>
  );
}

function toastFor(item: Exclude<Celebration, { kind: 'level' }>) {
  if (item.kind === 'goal') {
    return { title: 'Daily goal reached', body: `${item.xpToday} XP today — your goal was ${item.goal} XP.`, tone: 'celebrate' as const, durationMs: 10_000 };
  }
  return {
    title: `Achievement unlocked: ${item.title}`,
    body: [...(item.description ? [item.description] : []), ...(item.xpBonus ? [`+${item.xpBonus} XP bonus`] : [])],
    tone: 'celebrate' as const,
    durationMs: 10_000,
  };
}

function LevelUpDialog({ celebration, onClose }: { celebration: Extract<Celebration, { kind: 'level' }>; onClose: () => void }) {
  const levels = useQuery(progressQueries.levels());
  const next = levels.data ? levelFor(celebration.xp, levels.data.results) : null;
  return (
    <Dialog open title="Level up!" onClose={onClose} className="level-up">
      <p className="level-up-name" data-testid="level-up-name">
        {levelLabel(celebration.level)}
      </p>
      <p>You reached a new level with {celebration.xp} XP.</p>
      {next ? (
        <p>{next.next_level ? `${next.xp_to_go} XP to ${levelLabel(next.next_level)}.` : 'That is the top level. Well done!'}</p>
      ) : null}
      <div className="row">
        <button type="button" className="button" onClick={onClose} data-autofocus>
          Continue
        </button>
      </div>
    </Dialog>
  );
}

/**
 * The slow path: /me/progress and the achievements list (signed in) or this device's level
 * (signed out) compared with what was seen; a sync's new achievements are claimed as they come.
 */
function useCelebrationWatcher(quest: string, ready: boolean) {
  const auth = useAuth();
  const client = useQueryClient();
  const signedIn = auth.isAuthenticated;
  const owner: Owner | null = auth.isPending ? null : ownerOf(signedIn ? auth.user?.id : null);
  const game = useGameState(quest, ready);
  const summary = useQuery({ ...progressQueries.summary(quest), enabled: ready && signedIn });
  const achievements = useQuery({ ...achievementQueries.list(), enabled: signedIn });
  const zone = auth.data?.timeZone;

  // Compared on their values: the game state is a new object on every render.
  const seen = game && game.signedIn === signedIn ? game : null;
  const levelNumber = seen?.level.number;
  const levelName = seen?.level.name ?? '';
  const xp = seen?.xp ?? 0;
  const goalXp = seen?.goal?.xp;
  const xpToday = seen?.goal?.xp_today ?? 0;
  const met = seen?.goal?.met ?? false;
  useEffect(() => {
    if (!owner || levelNumber === undefined) return;
    observe(owner, {
      level: { level: { number: levelNumber, name: levelName }, xp },
      ...(goalXp !== undefined ? { goal: { xp: goalXp, xpToday, met, day: dayIn(zone) } } : {}),
    });
  }, [owner, levelNumber, levelName, xp, goalXp, xpToday, met, zone]);

  useEffect(() => {
    if (!owner || !signedIn || !achievements.data) return;
    const unlocked = achievements.data.results.filter((achievement) => achievement.unlocked);
    observe(owner, {
      achievements: unlocked.map((achievement) => ({
        slug: achievement.slug,
        title: achievement.title,
        description: achievement.description,
        xpBonus: achievement.xp_bonus,
      })),
    });
  }, [owner, signedIn, achievements.data]);

  // A graded exercise refreshes /me/progress only: when its count of achievements moves, the list follows.
  const countNow = summary.data?.achievements_unlocked;
  const countListed = achievements.data?.unlocked_count;
  const listFetching = achievements.isFetching;
  useEffect(() => {
    if (countNow === undefined || countListed === undefined || listFetching || countNow === countListed) return;
    void client.invalidateQueries({ queryKey: achievementQueries.all });
  }, [countNow, countListed, listFetching, client]);

  useEffect(
    () =>
      onSynced((result) => {
        const userId = client.getQueryData(sessionQuery.queryKey)?.user?.id;
        if (userId == null) return;
        const described = client.getQueryData(achievementQueries.list().queryKey)?.results ?? [];
        claim(ownerOf(userId), { achievements: withDescriptions(result.new_achievements, described) });
      }),
    [client],
  );
}

/** After a completion, a learner with no daily goal is asked once to pick one. */
function GoalPrompt({ quest, ready }: { quest: string; ready: boolean }) {
  const auth = useAuth();
  const completedNow = useCompletedNow();
  const summary = useQuery({ ...progressQueries.summary(quest), enabled: ready && auth.isAuthenticated });
  const [closed, setClosed] = useState(false);
  const [choice, setChoice] = useState<GoalXp | null>(20);
  const save = useSetDailyGoal();
  // Asked once per learner, on whichever device comes first: the server keeps the answer.
  const open = Boolean(completedNow && !closed && summary.data && !summary.data.daily_goal.chosen);
  if (!open) return null;
  const close = () => setClosed(true);
  // "Not now" (or Escape) is an answer too: a PUT of null, so no device asks again.
  const decline = () => {
    close();
    save.mutate(null);
  };
  return (
    <Dialog open title="Set a daily goal?" onClose={decline}>
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          if (choice !== null) save.mutate(choice, { onSuccess: close });
        }}
      >
        <p>A little every day adds up. How much XP would you like to earn each day?</p>
        <GoalPicker value={choice} onChange={setChoice} legend="Daily goal" />
        {save.error ? <ErrorMessage error={save.error} /> : null}
        <div className="row">
          <button type="submit" className="button" disabled={save.isPending || choice === null} data-autofocus>
            {save.isPending ? 'Saving…' : 'Set goal'}
          </button>
          <button type="button" className="button secondary" onClick={decline}>
            Not now
          </button>
        </div>
      </form>
    </Dialog>
  );
}
