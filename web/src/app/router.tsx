import { createBrowserRouter } from 'react-router';
import { NotFound } from '@/components/NotFound';
import { AchievementsPage } from '@/features/achievements/components/AchievementsPage';
import {
  RequestPasswordResetPage,
  RequireAuth,
  ResetPasswordPage,
  SignInPage,
  SignUpPage,
  VerifyEmailPage,
} from '@/features/auth/components/AuthPages';
import { LeaderboardPage } from '@/features/leaderboard/components/LeaderboardPage';
import { NotificationsPage } from '@/features/notifications/components/NotificationsPage';
import { ProgressPage } from '@/features/progress/components/ProgressPage';
import { HomePage } from './HomePage';
import { QuestPage } from '@/features/quests/components/QuestPage';
import { SettingsPage } from '@/features/settings/components/SettingsPage';
import { Layout } from './Layout';
import { LessonPage } from './LessonPage';

export const routes = [
  {
    element: <Layout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/quests/:slug', element: <QuestPage /> },
      { path: '/lessons/:slug', element: <LessonPage /> },
      { path: '/achievements', element: <AchievementsPage /> },
      { path: '/leaderboard', element: <LeaderboardPage /> },
      {
        path: '/notifications',
        element: (
          <RequireAuth path="/notifications">
            <NotificationsPage />
          </RequireAuth>
        ),
      },
      {
        path: '/progress',
        element: (
          <RequireAuth path="/progress">
            <ProgressPage />
          </RequireAuth>
        ),
      },
      {
        path: '/settings',
        element: (
          <RequireAuth path="/settings">
            <SettingsPage />
          </RequireAuth>
        ),
      },
      { path: '/signin', element: <SignInPage /> },
      { path: '/signup', element: <SignUpPage /> },
      { path: '/account/signup', element: <SignUpPage /> },
      { path: '/account/verify-email/:key', element: <VerifyEmailPage /> },
      { path: '/account/password/reset', element: <RequestPasswordResetPage /> },
      { path: '/account/password/reset/key/:key', element: <ResetPasswordPage /> },
      { path: '*', element: <NotFound /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
