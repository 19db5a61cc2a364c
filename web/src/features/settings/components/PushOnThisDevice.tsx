import { ErrorMessage } from '@/components/ErrorMessage';
import { PushBlocked, usePushStatus, useSetPush } from '../push';

/** The reminder as a notification on this device too (Web Push), where the browser allows it. */
export function PushOnThisDevice() {
  const status = usePushStatus();
  const set = useSetPush();
  const current = status.data;
  if (!current || current.state === 'unsupported' || current.state === 'off-server') return null;
  const on = current.state === 'on';
  return (
    <div className="push-device" role="group" aria-label="Notifications on this device">
      <p className="field-help" aria-live="polite">
        {current.state === 'blocked'
          ? 'Notifications are blocked for this site in this browser: allow them in its site settings to get the reminder here.'
          : on
            ? 'This device shows the reminder as a notification.'
            : 'This device can show the reminder as a notification, even with the app closed.'}
      </p>
      {current.state !== 'blocked' ? (
        <button type="button" className="button secondary" disabled={set.isPending} onClick={() => set.mutate({ on: !on, status: current })}>
          {set.isPending ? 'One moment…' : on ? 'Turn off on this device' : 'Notify me on this device'}
        </button>
      ) : null}
      {set.error instanceof PushBlocked ? (
        <p className="field-error" role="alert">
          {set.error.message}
        </p>
      ) : set.error ? (
        <ErrorMessage error={set.error} />
      ) : null}
    </div>
  );
}
