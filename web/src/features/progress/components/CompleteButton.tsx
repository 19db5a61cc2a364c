import { ErrorMessage } from '@/components/ErrorMessage';
import { useToast } from '@/components/Toasts';
import { useLocalEvents } from '@/lib/progressStore';
import { useAuth } from '@/lib/session';
import type { LessonDetail } from '@/lib/types';
import { useCompleteLesson, useProgressHeader } from '../api';

/** "Mark complete", or "Completed" once the lesson is done (on the server, or on this device: signed out, or offline). */
export function CompleteButton({ lesson }: { lesson: LessonDetail }) {
  const complete = useCompleteLesson(lesson.slug, lesson.xp, lesson.quest.slug);
  const header = useProgressHeader(lesson.quest.slug);
  const events = useLocalEvents();
  const { isAuthenticated } = useAuth();
  const toast = useToast();
  // Signed in, a completion made offline waits on the device until the network is back.
  const onDevice = events.some((event) => event.lesson === lesson.slug);
  const done = isAuthenticated ? (header.data?.completed_lessons.includes(lesson.slug) ?? false) || onDevice : onDevice;

  const onClick = () =>
    complete.mutate(undefined, {
      onSuccess: (result) => {
        if (result.alreadyDone) return;
        if (result.pending) {
          toast.show({ title: 'Saved on this device', body: 'It syncs when you are back online.', tone: 'info' });
          return;
        }
        // A level-up and new achievements have their own dialog and toasts (Celebrations).
        toast.show({ title: 'Lesson complete', body: `+${result.xpAwarded} XP`, tone: 'success' });
      },
    });

  return (
    <div>
      {done ? (
        <p className="badge badge-success" role="status">
          ✓ Completed
        </p>
      ) : (
        <button type="button" className="button" onClick={onClick} disabled={complete.isPending || header.isPending}>
          {complete.isPending ? 'Saving…' : 'Mark complete'}
        </button>
      )}
      {complete.error ? <ErrorMessage error={complete.error} /> : null}
    </div>
  );
}
