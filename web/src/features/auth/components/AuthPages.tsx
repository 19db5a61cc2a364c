import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { ErrorMessage, FieldError } from '@/components/ErrorMessage';
import { flashState } from '@/components/Flash';
import { Loading } from '@/components/Loading';
import { useDocumentTitle } from '@/lib/useDocumentTitle';
import { useToast } from '@/components/Toasts';
import * as allauth from '@/lib/allauth';
import { readEvents } from '@/lib/progressStore';
import { ensureConfig, useAuth } from '@/lib/session';
import { authQueries, useLogin, useResetPassword, useSignUp, useVerifyEmail } from '../api';
import { AuthForm } from './AuthForm';

/** "2 lessons synced from this device", or nothing when none were. */
function syncedWords(synced: number): string {
  return synced > 0 ? `${synced} lesson${synced === 1 ? '' : 's'} synced from this device` : '';
}

/** "Welcome — 2 lessons synced from this device", or "Welcome" when none were. */
function welcomeMessage(synced: number): string {
  return synced > 0 ? `Welcome — ${syncedWords(synced)}` : 'Welcome';
}

/** Only same-site paths: `next` must never send the learner to another origin. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

function PendingVerification() {
  return (
    <div className="note" role="status">
      <p>
        <strong>Check your inbox.</strong> We sent you a link to confirm your e-mail address.
      </p>
    </div>
  );
}

export function SignInPage() {
  useDocumentTitle('Sign in');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const login = useLogin();
  const pendingEvents = readEvents().length;
  const next = safeNext(params.get('next'));
  const needsVerification = login.data && !login.data.isAuthenticated && login.data.flows.some((flow) => flow.is_pending);
  return (
    <div className="auth-page">
      <h1>Sign in</h1>
      {pendingEvents > 0 ? (
        <p className="note">
          The {pendingEvents} lesson{pendingEvents === 1 ? '' : 's'} you completed on this device will be added to your account.
        </p>
      ) : null}
      {needsVerification ? <PendingVerification /> : null}
      <AuthForm
        submitLabel="Sign in"
        pendingLabel="Signing in…"
        pending={login.isPending}
        error={login.error}
        onSubmit={(input) =>
          login.mutate(input, {
            onSuccess: (state) => {
              // A sign-in that handed lessons over says so; a plain one needs no message.
              if (state.isAuthenticated) navigate(next, { replace: true, state: state.synced ? flashState(`Signed in — ${syncedWords(state.synced)}`) : null });
            },
          })
        }
      />
      <p>
        <Link to="/account/password/reset">Forgot your password?</Link>
      </p>
      <p>
        New here? <Link to={`/signup${params.get('next') ? `?next=${encodeURIComponent(next)}` : ''}`}>Create an account</Link>
      </p>
    </div>
  );
}

export function SignUpPage() {
  useDocumentTitle('Sign up');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const signUp = useSignUp();
  const pendingEvents = readEvents().length;
  const next = safeNext(params.get('next'));
  const needsVerification = signUp.data && !signUp.data.isAuthenticated;
  return (
    <div className="auth-page">
      <h1>Create an account</h1>
      {pendingEvents > 0 ? (
        <p className="note">
          The {pendingEvents} lesson{pendingEvents === 1 ? '' : 's'} you completed on this device will be added to your new account.
        </p>
      ) : null}
      {needsVerification ? (
        <PendingVerification />
      ) : (
        <AuthForm
          submitLabel="Sign up"
          pendingLabel="Creating your account…"
          newPassword
          pending={signUp.isPending}
          error={signUp.error}
          onSubmit={(input) =>
            signUp.mutate(input, {
              onSuccess: (state) => {
                if (state.isAuthenticated) navigate(next, { replace: true, state: flashState(welcomeMessage(state.synced)) });
              },
            })
          }
        />
      )}
      <p>
        Already have an account? <Link to="/signin">Sign in</Link>
      </p>
    </div>
  );
}

export function VerifyEmailPage() {
  useDocumentTitle('Confirm your e-mail');
  const { key = '' } = useParams();
  const navigate = useNavigate();
  const info = useQuery(authQueries.verifyEmail(key));
  const verify = useVerifyEmail();
  const auth = useAuth();
  // A signed-in learner confirming another address is changing theirs: Settings finishes it.
  const newAddress = auth.isAuthenticated && info.data !== undefined && auth.user?.email !== info.data.email;
  return (
    <div className="auth-page">
      <h1>Confirm your e-mail</h1>
      {info.isPending ? <Loading label="Checking the link…" /> : null}
      {info.error ? <ErrorMessage error={info.error} /> : null}
      {info.data ? (
        <div className="card">
          <p>
            Confirm that <strong>{info.data.email}</strong> is your e-mail address.
          </p>
          {verify.error ? <ErrorMessage error={verify.error} /> : null}
          <button
            type="button"
            className="button"
            disabled={verify.isPending}
            onClick={() =>
              verify.mutate(key, {
                onSuccess: (state) => {
                  if (newAddress && state.isAuthenticated) {
                    navigate('/settings', { replace: true, state: flashState('E-mail confirmed — make it your address under Account') });
                    return;
                  }
                  const message = state.synced ? `E-mail confirmed — ${syncedWords(state.synced)}` : 'E-mail confirmed';
                  navigate(state.isAuthenticated ? '/' : '/signin', { replace: true, state: flashState(message) });
                },
              })
            }
          >
            {verify.isPending ? 'Confirming…' : 'Confirm'}
          </button>
        </div>
      ) : null}
    </div>
  );
}

export function RequestPasswordResetPage() {
  useDocumentTitle('Reset your password');
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const id = useId();
  const client = useQueryClient();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      await ensureConfig(client);
      await allauth.requestPasswordReset(email);
      setSent(true);
    } catch (caught) {
      setError(caught);
    } finally {
      setPending(false);
    }
  };
  return (
    <div className="auth-page">
      <h1>Reset your password</h1>
      {sent ? (
        <p className="note" role="status">
          If an account uses {email}, a link to reset its password is on its way.
        </p>
      ) : (
        <form className="form card" onSubmit={(event) => void submit(event)}>
          <label htmlFor={id}>E-mail</label>
          <input id={id} type="email" value={email} onChange={(event) => setEmail(event.target.value)} autoComplete="email" required aria-describedby={`${id}-error`} />
          <FieldError error={error} field="email" id={`${id}-error`} />
          {error ? <ErrorMessage error={error} /> : null}
          <button type="submit" className="button" disabled={pending}>
            {pending ? 'Sending…' : 'Send reset link'}
          </button>
        </form>
      )}
    </div>
  );
}

export function ResetPasswordPage() {
  useDocumentTitle('Choose a new password');
  const { key = '' } = useParams();
  const [password, setPassword] = useState('');
  const navigate = useNavigate();
  const toast = useToast();
  const id = useId();
  const check = useQuery(authQueries.resetKey(key));
  const reset = useResetPassword();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    reset.mutate(
      { key, password },
      {
        onSuccess: (state) => {
          toast.show({ title: 'Your password was changed', tone: 'success' });
          navigate(state.isAuthenticated ? '/' : '/signin', { replace: true });
        },
      },
    );
  };
  return (
    <div className="auth-page">
      <h1>Choose a new password</h1>
      {check.isPending ? <Loading label="Checking the link…" /> : null}
      {check.error ? (
        <>
          <ErrorMessage error={check.error} />
          <p>
            <Link to="/account/password/reset">Ask for a new link</Link>
          </p>
        </>
      ) : null}
      {check.data ? (
        <form className="form card" onSubmit={submit}>
          <label htmlFor={id}>New password</label>
          <input
            id={id}
            type="password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            autoComplete="new-password"
            minLength={8}
            required
            aria-describedby={`${id}-error`}
          />
          <FieldError error={reset.error} field="password" id={`${id}-error`} />
          {reset.error ? <ErrorMessage error={reset.error} /> : null}
          <button type="submit" className="button" disabled={reset.isPending}>
            {reset.isPending ? 'Saving…' : 'Set password'}
          </button>
        </form>
      ) : null}
    </div>
  );
}

/** Pages only for signed-in learners send everyone else to sign in, and back afterwards. */
export function RequireAuth({ children, path }: { children: React.ReactNode; path: string }) {
  const auth = useAuth();
  if (auth.isPending) return <Loading />;
  if (auth.error) return <ErrorMessage error={auth.error} onRetry={() => void auth.refetch()} />;
  if (!auth.isAuthenticated) return <Navigate to={`/signin?next=${encodeURIComponent(path)}`} replace />;
  return <>{children}</>;
}
