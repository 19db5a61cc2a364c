import type { ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { NotFound } from '@/components/NotFound';
import { HomePage } from './HomePage';
import { QuestPage } from '@/features/quests/components/QuestPage';
import { Layout } from './Layout';
import { LessonPage } from './LessonPage';

// The pages a first visit lands on (home, a quest, a lesson) and the layout come in the main
// bundle, so their markup shows without waiting for another file. Every other page is its own
// chunk, fetched by the router before it renders the page (no fallback in between): a phone
// opening a lesson does not download, parse and run the account, settings and board pages.
const auth = () => import('@/features/auth/components/AuthPages');
const page = (load: () => Promise<ReactNode>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ element: await load() }),
});
const authPage = (name: 'SignInPage' | 'SignUpPage' | 'VerifyEmailPage' | 'RequestPasswordResetPage' | 'ResetPasswordPage') =>
  page(async () => {
    const Page = (await auth())[name];
    return <Page />;
  });
const signedIn = (path: string, load: () => Promise<ReactNode>) =>
  page(async () => {
    const [{ RequireAuth }, element] = await Promise.all([auth(), load()]);
    return <RequireAuth path={path}>{element}</RequireAuth>;
  });

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/quests/:slug', element: <QuestPage /> },
      { path: '/lessons/:slug', element: <LessonPage /> },
      {
        path: '/achievements',
        ...page(async () => {
          const { AchievementsPage } = await import('@/features/achievements/components/AchievementsPage');
          return <AchievementsPage />;
        }),
      },
      {
        path: '/leaderboard',
        ...page(async () => {
          const { LeaderboardPage } = await import('@/features/leaderboard/components/LeaderboardPage');
          return <LeaderboardPage />;
        }),
      },
      {
        path: '/notifications',
        ...signedIn('/notifications', async () => {
          const { NotificationsPage } = await import('@/features/notifications/components/NotificationsPage');
          return <NotificationsPage />;
        }),
      },
      {
        path: '/progress',
        ...signedIn('/progress', async () => {
          const { ProgressPage } = await import('@/features/progress/components/ProgressPage');
          return <ProgressPage />;
        }),
      },
      {
        path: '/review',
        ...signedIn('/review', async () => {
          const { ReviewPage } = await import('./ReviewPage');
          return <ReviewPage />;
        }),
      },
      {
        path: '/reports',
        ...signedIn('/reports', async () => {
          const { MyReportsPage } = await import('@/features/reports/components/MyReportsPage');
          return <MyReportsPage />;
        }),
      },
      {
        path: '/settings',
        ...signedIn('/settings', async () => {
          const { SettingsPage } = await import('@/features/settings/components/SettingsPage');
          return <SettingsPage />;
        }),
      },
      { path: '/signin', ...authPage('SignInPage') },
      { path: '/signup', ...authPage('SignUpPage') },
      { path: '/account/signup', ...authPage('SignUpPage') },
      { path: '/account/verify-email/:key', ...authPage('VerifyEmailPage') },
      { path: '/account/password/reset', ...authPage('RequestPasswordResetPage') },
      { path: '/account/password/reset/key/:key', ...authPage('ResetPasswordPage') },
      { path: '*', element: <NotFound /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
