import { useQuery } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useLocalEvents } from '@/lib/progressStore';
import { progressQueries } from '@/lib/queries';
import { useAuth } from '@/lib/session';
import type { Block, CheckBlock, LessonDetail } from '@/lib/types';
import { useStandings, type Answered, type Standings } from '../api';

/** The lesson finished on this page: when, and the XP it brought. */
export interface Completion {
  at: number;
  xp: number;
}

export interface ChecksState {
  lesson: LessonDetail;
  checks: CheckBlock[];
  standings: Standings;
  passed: number;
  /** The lesson is complete: on the server (signed in), on this device, or on this page. */
  done: boolean;
  /** When this page opened, for the time spent. */
  openedAt: number;
  completion: Completion | null;
  answered: (answer: Answered) => void;
  /** How many times the learner asked to see the lesson-complete screen: it takes the focus each time. */
  resultsAsked: number;
  showResults: () => void;
}

const ChecksContext = createContext<ChecksState | null>(null);

export const isCheck = (block: Block): block is CheckBlock => block.kind === 'check';

/**
 * What the lesson's checks share: their standings, how many are passed, whether the lesson is
 * done, and this visit's XP and completion (for the lesson-complete screen).
 */
export function ChecksProvider({ lesson, children }: { lesson: LessonDetail; children: ReactNode }) {
  const checks = useMemo(() => lesson.blocks.filter(isCheck), [lesson.blocks]);
  const { standings } = useStandings(lesson.slug, checks);
  const { isAuthenticated } = useAuth();
  const summary = useQuery({ ...progressQueries.summary(lesson.quest.slug), enabled: isAuthenticated && checks.length > 0 });
  const events = useLocalEvents();
  const [openedAt] = useState(() => Date.now());
  // XP the answers on this page paid (the standings do not say what earlier ones paid).
  const [earned, setEarned] = useState(0);
  const [completedAt, setCompletedAt] = useState<number | null>(null);
  const [resultsAsked, setResultsAsked] = useState(0);
  const showResults = useCallback(() => setResultsAsked((count) => count + 1), []);
  const answered = useCallback(({ result, completedNow }: Answered) => {
    setEarned((xp) => xp + result.xp_awarded);
    if (completedNow) setCompletedAt(Date.now());
  }, []);
  const onDevice = events.some((event) => event.lesson === lesson.slug);
  const onServer = isAuthenticated && (summary.data?.completed_lessons.includes(lesson.slug) ?? false);
  // Signed out nothing is paid: the device counts the lesson's XP once its checks are passed, as its header does.
  const xp = isAuthenticated ? earned : lesson.xp;
  const completion = completedAt === null ? null : { at: completedAt, xp };
  const passed = checks.filter((check) => standings.get(check.id)?.passed).length;
  const value: ChecksState = {
    lesson,
    checks,
    standings,
    passed,
    done: onDevice || onServer || completion !== null,
    openedAt,
    completion,
    answered,
    resultsAsked,
    showResults,
  };
  return <ChecksContext.Provider value={value}>{children}</ChecksContext.Provider>;
}

export function useChecks(): ChecksState {
  const state = useContext(ChecksContext);
  if (!state) throw new Error('useChecks needs a ChecksProvider');
  return state;
}
