import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorMessage } from '@/components/ErrorMessage';
import { Loading } from '@/components/Loading';
import { useTimeZone } from '@/lib/session';
import { formatDateTime } from '@/lib/timeZones';
import type { Report } from '@/lib/types';
import { useDocumentTitle } from '@/lib/useDocumentTitle';
import { KINDS, reportQueries, STATUSES } from '../api';
import './MyReportsPage.css';

/** /reports: the issues the learner reported, with their state and the editors' answers. */
export function MyReportsPage() {
  const reports = useInfiniteQuery(reportQueries.mine());
  useDocumentTitle('My reports');
  const all = reports.data?.pages.flatMap((page) => page.results) ?? [];
  return (
    <div className="my-reports">
      <h1>My reports</h1>
      <p className="muted">The issues you reported on lessons (“Report an issue”), newest first. The editors answer here.</p>
      {reports.isPending ? <Loading label="Loading your reports…" /> : null}
      {reports.error ? <ErrorMessage error={reports.error} onRetry={() => void reports.refetch()} /> : null}
      {reports.data && all.length === 0 ? <p>You have not reported anything yet.</p> : null}
      {all.length > 0 ? (
        <ol className="report-list" aria-label="Your reports">
          {all.map((report) => (
            <ReportItem key={report.id} report={report} />
          ))}
        </ol>
      ) : null}
      {reports.hasNextPage ? (
        <button type="button" className="button secondary" onClick={() => void reports.fetchNextPage()} disabled={reports.isFetchingNextPage}>
          {reports.isFetchingNextPage ? 'Loading…' : 'More reports'}
        </button>
      ) : null}
    </div>
  );
}

function ReportItem({ report }: { report: Report }) {
  const zone = useTimeZone();
  const kind = KINDS.find((choice) => choice.value === report.kind)?.label ?? report.kind;
  const closed = report.status === 'resolved' || report.status === 'rejected';
  return (
    <li className="card">
      <article aria-labelledby={`report-${report.id}`}>
        <h2 id={`report-${report.id}`}>
          {kind} on <Link to={`/lessons/${report.lesson}`}>{report.lesson_title}</Link>
        </h2>
        <p>
          <span className={closed && report.status === 'resolved' ? 'badge badge-success' : 'badge'}>{STATUSES[report.status]}</span>{' '}
          {report.created_at ? (
            <span className="muted">
              sent <time dateTime={report.created_at}>{formatDateTime(report.created_at, zone)}</time>
            </span>
          ) : null}
          {report.resolved_at ? (
            <span className="muted">
              {' '}
              · closed <time dateTime={report.resolved_at}>{formatDateTime(report.resolved_at, zone)}</time>
            </span>
          ) : null}
        </p>
        <blockquote dir="auto">{report.message}</blockquote>
        {report.answer ? (
          <p className="note" dir="auto">
            <strong>The editors’ answer:</strong> {report.answer}
          </p>
        ) : (
          <p className="muted">{closed ? 'Closed without an answer.' : 'No answer yet.'}</p>
        )}
      </article>
    </li>
  );
}
