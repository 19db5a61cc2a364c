import { Link, useLocation } from 'react-router';
import { ApiError } from '@/lib/api';

export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.userMessage;
  return 'Something went wrong. Please try again.';
}

interface Props {
  error: unknown;
  onRetry?: () => void;
}

/** An error from any request: 401 offers sign-in, 429 says when to retry. */
export function ErrorMessage({ error, onRetry }: Props) {
  const location = useLocation();
  const unauthenticated = error instanceof ApiError && error.isUnauthenticated;
  const next = encodeURIComponent(location.pathname + location.search);
  return (
    <div className="error" role="alert">
      <p>{errorText(error)}</p>
      {unauthenticated ? (
        <p>
          <Link to={`/signin?next=${next}`}>Sign in</Link>
        </p>
      ) : onRetry ? (
        <button type="button" className="button secondary" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** The first message for a form field from an ApiError. */
export function FieldError({ error, field, id }: { error: unknown; field: string; id: string }) {
  if (!(error instanceof ApiError)) return null;
  const message = error.fieldError(field);
  return message ? (
    <p className="field-error" id={id}>
      {message}
    </p>
  ) : null;
}

/**
 * A form's error, shown once: nothing when the fields' own messages (FieldError) already say
 * it, else the whole sentence (a 429, a network error, a message for no field shown here).
 */
export function FormError({ error, fields }: { error: unknown; fields: string[] }) {
  if (!error) return null;
  if (error instanceof ApiError && fields.some((field) => error.fieldError(field))) return null;
  return <ErrorMessage error={error} />;
}

/** Whether an error means "no such thing" (the page shows NotFound rather than a retry). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
