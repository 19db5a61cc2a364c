import { lazy, Suspense, type ReactNode } from 'react';
import { Loading } from '@/components/Loading';
import { ProgressBar } from '@/components/ProgressBar';
import { useChecks } from './ChecksSession';

// Shown only once the last check is passed: its code and styles are a chunk of their own,
// outside the lesson's first visit.
const LessonCompleteScreen = lazy(() => import('./LessonComplete').then((module) => ({ default: module.LessonComplete })));

/** Where "Mark complete" was: the lesson's checks passed so far, or "Completed". */
export function ChecksStatus() {
  const { lesson, checks, passed, done } = useChecks();
  if (done) {
    return (
      <p className="badge badge-success" role="status">
        ✓ Completed
      </p>
    );
  }
  return (
    <div className="checks-status">
      <p>
        {passed} of {checks.length} checks passed
        {passed === checks.length && lesson.exercise ? ' · the exercise completes the lesson' : ''}
      </p>
      <ProgressBar value={passed} max={checks.length} label="Checks passed" />
    </div>
  );
}

/** The lesson-complete screen, once the last check is passed on this page; `today` is the streak and goal. */
export function LessonComplete({ today }: { today: ReactNode }) {
  const { completion } = useChecks();
  if (!completion) return null;
  return (
    <Suspense fallback={<Loading label="Loading your results…" />}>
      <LessonCompleteScreen today={today} />
    </Suspense>
  );
}
