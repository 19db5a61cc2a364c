import { useEffect, useRef } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { AppStatus } from '@/components/AppStatus';
import { errorText } from '@/components/ErrorMessage';
import { FlashBanner } from '@/components/Flash';
import { ThemeToggle } from '@/components/ThemeToggle';
import { useToast } from '@/components/Toasts';
import { useLogout } from '@/features/auth/api';
import { Celebrations } from '@/features/progress/components/Celebrations';
import { GameBar } from '@/features/progress/components/GameBar';
import { notificationQueries } from '@/features/notifications/api';
import { useSyncReviewsWhenOnline } from '@/features/reviews/api';
import { ReviewLink } from '@/features/reviews/components/ReviewLink';
import { hasLocalProgress, syncLocalProgress } from '@/lib/progressSync';
import { isAuthQuery, useAuth } from '@/lib/session';
import { useSignOutFromOtherTabs } from '@/lib/signOut';
import { useQuestInView } from './questInView';
import { onlineManager, useQuery, useQueryClient } from '@tanstack/react-query';

export function Layout() {
  const auth = useAuth();
  const location = useLocation();
  const inView = useQuestInView();
  useSyncWhenSignedIn(auth.isAuthenticated);
  useSyncReviewsWhenOnline(auth.user?.id ?? null);
  useSignOutFromOtherTabs();

  // After a move within the app (not on the first load, where the browser starts at the top
  // and the skip link is the first Tab stop): focus the new page's main region and scroll up.
  const shown = useRef<string | null>(null);
  useEffect(() => {
    const page = location.pathname + location.hash;
    const first = shown.current === null || shown.current === page;
    shown.current = page;
    if (first || location.hash) return;
    document.getElementById('main')?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, [location.pathname, location.hash]);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/" className="brand">
          Learning Platform
        </Link>
        <nav aria-label="Main">
          <ul>
            <li>
              <NavLink to="/achievements">Achievements</NavLink>
            </li>
            <li>
              <NavLink to="/leaderboard">Leaderboard</NavLink>
            </li>
            {auth.isAuthenticated ? <SignedInLinks /> : null}
            {!auth.isPending && !auth.isAuthenticated ? (
              <>
                <li>
                  <NavLink to="/signin">Sign in</NavLink>
                </li>
                <li>
                  <NavLink to="/signup">Sign up</NavLink>
                </li>
              </>
            ) : null}
            <li>
              <ThemeToggle />
            </li>
          </ul>
        </nav>
        <GameBar quest={inView.quest} ready={inView.ready} />
      </header>
      <main id="main" tabIndex={-1}>
        <AppStatus />
        <FlashBanner />
        <Outlet />
      </main>
      <Celebrations quest={inView.quest} ready={inView.ready} />
    </>
  );
}

function SignedInLinks() {
  const unread = useQuery(notificationQueries.unreadCount());
  const logout = useLogout();
  const navigate = useNavigate();
  const toast = useToast();
  const count = unread.data ?? 0;
  return (
    <>
      <li>
        <NavLink to="/notifications" aria-label={`Notifications, ${count} unread`}>
          Notifications
          {count > 0 ? (
            <span className="count" data-testid="unread-count">
              {count}
            </span>
          ) : null}
        </NavLink>
      </li>
      <li>
        <NavLink to="/progress">Progress</NavLink>
      </li>
      <li>
        <ReviewLink />
      </li>
      <li>
        <NavLink to="/settings">Settings</NavLink>
      </li>
      <li>
        <button type="button" className="link-button" disabled={logout.isPending} onClick={() =>
            logout.mutate(undefined, {
              onSuccess: () => navigate('/'),
              onError: (error) => toast.show({ title: 'Could not sign out', body: errorText(error), tone: 'error' }),
            })
          }>
          Sign out
        </button>
      </li>
    </>
  );
}

/**
 * Sends the completions and answers kept on this device while signed in: leftovers of a failed
 * sync, and completions made offline. On a page load that finds a session, and when the network comes back.
 * The server takes a replayed event once, so a second send is harmless.
 */
function useSyncWhenSignedIn(signedIn: boolean) {
  const client = useQueryClient();
  useEffect(() => {
    if (!signedIn) return;
    const send = () => {
      if (!hasLocalProgress() || !onlineManager.isOnline()) return;
      syncLocalProgress()
        .then(() => client.invalidateQueries({ predicate: (query) => !isAuthQuery(query) }))
        .catch(() => undefined);
    };
    send();
    return onlineManager.subscribe((online) => {
      if (online) send();
    });
  }, [signedIn, client]);
}
