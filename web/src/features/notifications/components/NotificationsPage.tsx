import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorMessage } from '@/components/ErrorMessage';
import { Loading } from '@/components/Loading';
import { notificationQueries, useMarkAllRead, useMarkRead } from '../api';
import { useTimeZone } from '@/lib/session';
import { formatDateTime } from '@/lib/timeZones';
import { useDocumentTitle } from '@/lib/useDocumentTitle';

export function NotificationsPage() {
  const [page, setPage] = useState(1);
  const notifications = useQuery(notificationQueries.page(page));
  const markRead = useMarkRead();
  const zone = useTimeZone();
  const markAll = useMarkAllRead();
  useDocumentTitle('Notifications');
  if (notifications.isPending) return <Loading label="Loading notifications…" />;
  if (notifications.error) return <ErrorMessage error={notifications.error} onRetry={() => void notifications.refetch()} />;
  const data = notifications.data;
  return (
    <div>
      <div className="section-head">
        <h1>Notifications</h1>
        <button type="button" className="button secondary" disabled={data.unread_count === 0 || markAll.isPending} onClick={() => markAll.mutate()}>
          Mark all read
        </button>
      </div>
      <p>{data.unread_count} unread</p>
      {markAll.error ? <ErrorMessage error={markAll.error} /> : null}
      {markRead.error ? <ErrorMessage error={markRead.error} /> : null}
      {data.results.length === 0 ? <p className="muted">Nothing yet.</p> : null}
      <ul className="notification-list" aria-label="Your notifications">
        {data.results.map((notification) => (
          <li key={notification.id} className={notification.is_read ? 'read' : 'unread'}>
            <div>
              <p>
                {!notification.is_read ? <span className="badge">New</span> : null}{' '}
                <Link to={notification.url} onClick={() => !notification.is_read && markRead.mutate(notification.id)}>
                  {notification.title}
                </Link>
              </p>
              {notification.body ? <p dir="auto">{notification.body}</p> : null}
              <time className="muted" dateTime={notification.created_at}>
                {formatDateTime(notification.created_at, zone)}
              </time>
            </div>
            {!notification.is_read ? (
              <button
                type="button"
                className="button small secondary"
                onClick={() => markRead.mutate(notification.id)}
                disabled={markRead.isPending}
              >
                Mark read<span className="visually-hidden">: {notification.title}</span>
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {data.previous || data.next ? (
        <nav className="pager" aria-label="Pages">
          <button type="button" className="button secondary" disabled={!data.previous} onClick={() => setPage(page - 1)}>
            Newer
          </button>
          <button type="button" className="button secondary" disabled={!data.next} onClick={() => setPage(page + 1)}>
            Older
          </button>
        </nav>
      ) : null}
    </div>
  );
}
