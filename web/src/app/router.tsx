import type { ComponentType, ReactNode } from 'react';
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
type Pages<Name extends string> = Promise<Record<Name, ComponentType>>;
const page = (load: () => Promise<ReactNode>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ element: await load() }),
});
// The module is imported whole and its page taken by name: each route then costs the main bundle
// its path and chunk only (a destructured import repeats the name four times in the build).
const element = async <Name extends string>(load: () => Pages<Name>, name: Name) => {
  const Page: ComponentType = (await load())[name];
  return <Page />;
};
const lazyPage = <Name extends string>(path: string, load: () => Pages<Name>, name: Name): RouteObject => ({
  path,
  ...page(() => element(load, name)),
});
const authPage = (name: 'SignInPage' | 'SignUpPage' | 'VerifyEmailPage' | 'RequestPasswordResetPage' | 'ResetPasswordPage') =>
  page(() => element(auth, name));
const signedIn = <Name extends string>(path: string, load: () => Pages<Name>, name: Name): RouteObject => ({
  path,
  ...page(async () => {
    const [{ RequireAuth }, shown] = await Promise.all([auth(), element(load, name)]);
    return <RequireAuth path={path}>{shown}</RequireAuth>;
  }),
});

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/quests/:slug', element: <QuestPage /> },
      { path: '/lessons/:slug', element: <LessonPage /> },
      lazyPage('/achievements', () => import('@/features/achievements/components/AchievementsPage'), 'AchievementsPage'),
      lazyPage('/leaderboard', () => import('@/features/leaderboard/components/LeaderboardPage'), 'LeaderboardPage'),
      lazyPage('/league', () => import('@/features/league/components/LeaguePage'), 'LeaguePage'),
      signedIn('/notifications', () => import('@/features/notifications/components/NotificationsPage'), 'NotificationsPage'),
      signedIn('/progress', () => import('@/features/progress/components/ProgressPage'), 'ProgressPage'),
      signedIn('/review', () => import('./ReviewPage'), 'ReviewPage'),
      signedIn('/reports', () => import('@/features/reports/components/MyReportsPage'), 'MyReportsPage'),
      signedIn('/settings', () => import('@/features/settings/components/SettingsPage'), 'SettingsPage'),
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
