// The exercise's one status line: the best result and the latest attempt told apart.
import type { SubmissionListItem } from '@/lib/types';

export interface Status {
  tone: 'passed' | 'failed' | 'pending' | 'none';
  text: string;
}

type Attempt = Pick<SubmissionListItem, 'status' | 'score' | 'passed'>;

const percent = (score: number | null | undefined) => `${Math.round((score ?? 0) * 100)}%`;

/**
 * "Passed · latest attempt 100%", "Passed earlier (best 100%) · latest attempt 60%, below the
 * pass mark (80%)", "Not passed yet · latest attempt 60% (pass mark 80%)", …
 * `attempts` newest first; `passed` is the exercise's own word (it survives attempts being
 * paged away).
 */
export function statusLine({ passed, attempts, passMark }: { passed: boolean; attempts: Attempt[]; passMark: number }): Status {
  const mark = percent(passMark);
  const latest = attempts[0];
  const graded = attempts.filter((attempt) => attempt.status === 'graded');
  const best = graded.reduce<number | null>((top, attempt) => Math.max(top ?? 0, attempt.score ?? 0), null);
  const passedEver = passed || graded.some((attempt) => attempt.passed);
  if (!latest) return { tone: 'none', text: `Not attempted yet · pass mark ${mark}` };

  const head = passedEver ? (latest.status === 'graded' && latest.passed ? 'Passed' : `Passed earlier${best !== null ? ` (best ${percent(best)})` : ''}`) : 'Not passed yet';
  let tail: string;
  if (latest.status === 'queued' || latest.status === 'grading') tail = 'latest attempt being graded…';
  else if (latest.status === 'invalid') tail = 'latest attempt could not be read';
  else if (latest.passed) tail = `latest attempt ${percent(latest.score)}`;
  else tail = passedEver ? `latest attempt ${percent(latest.score)}, below the pass mark (${mark})` : `latest attempt ${percent(latest.score)} (pass mark ${mark})`;

  const bestNote = !passedEver && best !== null && latest.status === 'graded' && best > (latest.score ?? 0) ? ` · best ${percent(best)}` : '';
  const pending = latest.status === 'queued' || latest.status === 'grading';
  return { tone: passedEver ? 'passed' : pending ? 'pending' : 'failed', text: `${head} · ${tail}${bestNote}` };
}
