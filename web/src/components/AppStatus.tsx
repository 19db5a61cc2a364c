import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useOnline } from '@/lib/offline';
import { applyWaitingUpdate, useUpdateWaiting } from '@/lib/serviceWorker';

/**
 * The app's state that is not a page's: offline (pages come from this device's copy), or a new
 * version waiting. A waiting version is taken on the next move to another page: the page the
 * learner goes to loads in full from the new version, so nothing reloads under them mid-lesson.
 * The live region is always rendered, so screen readers know it before a message arrives.
 */
export function AppStatus() {
  const online = useOnline();
  const waiting = useUpdateWaiting();
  const { pathname } = useLocation();
  const shown = useRef(pathname);

  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    applyWaitingUpdate();
  }, [pathname]);

  const message = !online
    ? 'Offline — showing the copy saved on this device. Lessons you complete sync when you are back online.'
    : waiting
      ? 'A new version is ready — it loads on your next page.'
      : '';
  return (
    <div className={message ? (online ? 'app-status' : 'app-status offline') : undefined}>
      <p role="status" data-testid="app-status">
        {message}
      </p>
    </div>
  );
}
