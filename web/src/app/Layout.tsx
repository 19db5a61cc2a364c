import { useEffect, useRef } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { AppStatus } from '@/components/AppStatus';
import { errorText } from '@/components/ErrorMessage';
import { FlashBanner } from '@/components/Flash';
import { Icon, type IconName } from '@/components/Icon';
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
        {/* On a phone (styles.css, max-width 480px) this is the bottom bar: the main places in
            reach of a thumb, the others behind More; wider, the top bar's row of links. */}
        <nav aria-label="Main" className="places">
          <ul>
            <li className="phone-only">
              <NavLink to="/" end>
                <Icon name="home" className="nav-icon" />
                <span>Home</span>
              </NavLink>
            </li>
            {auth.isAuthenticated ? <SignedInPlaces /> : <SignedOutPlaces pending={auth.isPending} />}
          </ul>
        </nav>
        <div className="topbar-tools">
          {auth.isAuthenticated ? <SignOutButton /> : null}
          <ThemeToggle />
        </div>
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

function Place({ to, icon, label }: { to: string; icon: IconName; label: string }) {
  return (
    <li>
      <NavLink to={to}>
        <Icon name={icon} className="nav-icon" />
        <span>{label}</span>
      </NavLink>
    </li>
  );
}

function SignedOutPlaces({ pending }: { pending: boolean }) {
  return (
    <>
      <Place to="/achievements" icon="trophy" label="Achievements" />
      <Place to="/leaderboard" icon="leaderboard" label="Leaderboard" />
      {pending ? null : (
        <>
          <Place to="/signin" icon="person" label="Sign in" />
          <Place to="/signup" icon="person" label="Sign up" />
        </>
      )}
    </>
  );
}

/** Review, the board and notifications in the bar; the rest (the league among them) behind More on a phone (a native popover), in the row wider. */
function SignedInPlaces() {
  const unread = useQuery(notificationQueries.unreadCount());
  const count = unread.data ?? 0;
  const closeMore = () => document.getElementById('more-places')?.hidePopover?.();
  return (
    <>
      <li>
        <ReviewLink icon={<Icon name="review" className="nav-icon" />} />
      </li>
      <Place to="/leaderboard" icon="leaderboard" label="Leaderboard" />
      <li>
        <NavLink to="/notifications" aria-label={`Notifications, ${count} unread`}>
          <Icon name="bell" className="nav-icon" />
          <span>
            Notifications
            {count > 0 ? (
              <span className="count" data-testid="unread-count">
                {count}
              </span>
            ) : null}
          </span>
        </NavLink>
      </li>
      <li className="more">
        <button type="button" popoverTarget="more-places" className="more-button">
          <Icon name="more" className="nav-icon" />
          <span>More</span>
        </button>
        <ul id="more-places" popover="auto" onClick={closeMore}>
          <Place to="/league" icon="trophy" label="League" />
          <Place to="/achievements" icon="trophy" label="Achievements" />
          <Place to="/progress" icon="progress" label="Progress" />
          <Place to="/settings" icon="gear" label="Settings" />
        </ul>
      </li>
    </>
  );
}

function SignOutButton() {
  const logout = useLogout();
  const navigate = useNavigate();
  const toast = useToast();
  return (
    <button type="button" className="link-button" disabled={logout.isPending} onClick={() =>
        logout.mutate(undefined, {
          onSuccess: () => navigate('/'),
          onError: (error) => toast.show({ title: 'Could not sign out', body: errorText(error), tone: 'error' }),
        })
      }>
      Sign out
    </button>
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
