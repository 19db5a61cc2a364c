import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Dialog } from '@/components/Dialog';
import { ErrorMessage, FieldError, FormError } from '@/components/ErrorMessage';
import { flashState } from '@/components/Flash';
import { Loading } from '@/components/Loading';
import { useToast } from '@/components/Toasts';
import { useTimeZone } from '@/lib/session';
import { formatDateTime } from '@/lib/timeZones';
import {
  settingsQueries,
  useAddEmail,
  useChangePassword,
  useDeleteAccount,
  useDownloadData,
  useRemoveEmail,
  useResendEmail,
  useSwitchEmail,
} from '../api';
import './Account.css';

/** Settings' Account section: password, e-mail address, the data download, deletion. */
export function AccountSection() {
  return (
    <section className="card account" aria-labelledby="account-title">
      <h2 id="account-title">Account</h2>
      <PasswordForm />
      <EmailForm />
      <h3>Your data</h3>
      <p>
        <Link to="/reports">My reports</Link>: the issues you reported on lessons, their state and the editors&apos; answers.
      </p>
      <DownloadData />
      <DeleteAccount />
    </section>
  );
}

function PasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [keepThisDevice, setKeepThisDevice] = useState(true);
  const navigate = useNavigate();
  const change = useChangePassword(() =>
    navigate('/', { replace: true, state: flashState('Password changed. You are signed out on every device, this one too.') }),
  );
  const toast = useToast();
  const id = useId();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate(
      { current_password: current, new_password: next, keepThisDevice },
      {
        onSuccess: () => {
          if (!keepThisDevice) return;
          setCurrent('');
          setNext('');
          toast.show({ title: 'Password changed', body: 'Your other devices were signed out; this one stays signed in.', tone: 'success' });
        },
      },
    );
  };
  return (
    <form className="form" onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`}>Change password</h3>
      <p className="field-help muted" id={`${id}-help`}>
        Changing it signs out your other devices. We e-mail you that it changed.
      </p>
      <label htmlFor={`${id}-current`}>Current password</label>
      <input
        id={`${id}-current`}
        type="password"
        autoComplete="current-password"
        value={current}
        onChange={(event) => setCurrent(event.target.value)}
        aria-describedby={`${id}-current-error`}
        required
      />
      <FieldError error={change.error} field="current_password" id={`${id}-current-error`} />
      <label htmlFor={`${id}-new`}>New password</label>
      <input
        id={`${id}-new`}
        type="password"
        autoComplete="new-password"
        value={next}
        onChange={(event) => setNext(event.target.value)}
        aria-describedby={`${id}-help ${id}-new-error`}
        required
      />
      <FieldError error={change.error} field="new_password" id={`${id}-new-error`} />
      <div className="toggle">
        <input id={`${id}-keep`} type="checkbox" checked={keepThisDevice} onChange={(event) => setKeepThisDevice(event.target.checked)} />
        <label htmlFor={`${id}-keep`}>Stay signed in on this device</label>
      </div>
      <FormError error={change.error} fields={['current_password', 'new_password']} />
      <div className="row">
        <button type="submit" className="button" disabled={change.isPending || !current || !next}>
          {change.isPending ? 'Changing…' : 'Change password'}
        </button>
      </div>
    </form>
  );
}

function EmailForm() {
  const emails = useQuery(settingsQueries.emails());
  const [address, setAddress] = useState('');
  const add = useAddEmail();
  const resend = useResendEmail();
  const remove = useRemoveEmail();
  const use = useSwitchEmail();
  const toast = useToast();
  const id = useId();
  const own = emails.data?.find((email) => email.primary);
  const others = emails.data?.filter((email) => !email.primary) ?? [];
  const busy = add.isPending || resend.isPending || remove.isPending || use.isPending;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(address.trim(), {
      onSuccess: () => {
        setAddress('');
        toast.show({ title: 'Confirmation link sent', body: `Open the link we sent to ${address.trim()} to confirm it.`, tone: 'success' });
      },
    });
  };
  const actionError = resend.error ?? remove.error ?? use.error;
  return (
    <form className="form" onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`}>E-mail address</h3>
      {emails.isPending ? <Loading label="Loading your addresses…" /> : null}
      {emails.error ? <ErrorMessage error={emails.error} onRetry={() => void emails.refetch()} /> : null}
      {own ? (
        <p>
          Your address: <strong>{own.email}</strong>
          {own.verified ? null : <span className="badge"> not confirmed yet</span>}
        </p>
      ) : null}
      {others.map((email) => (
        <div key={email.email} className="note" role="status">
          {email.verified ? (
            <>
              <p>
                <strong>{email.email}</strong> is confirmed. Make it your address: you sign in with it from then on, and{' '}
                {own ? own.email : 'the old address'} is told and removed.
              </p>
              <div className="row">
                <button type="button" className="button small" disabled={busy} onClick={() => use.mutate(email.email)}>
                  Use {email.email}
                </button>
                <button type="button" className="button small secondary" disabled={busy} onClick={() => remove.mutate(email.email)}>
                  Remove it
                </button>
              </div>
            </>
          ) : (
            <>
              <p>
                Waiting for confirmation: we sent a link to <strong>{email.email}</strong>. It counts once you open it; until then you
                sign in with {own ? own.email : 'your current address'}.
              </p>
              <div className="row">
                <button type="button" className="button small secondary" disabled={busy} onClick={() => resend.mutate(email.email)}>
                  Send the link again
                </button>
                <button type="button" className="button small secondary" disabled={busy} onClick={() => remove.mutate(email.email)}>
                  Cancel the change
                </button>
              </div>
            </>
          )}
        </div>
      ))}
      {actionError ? <ErrorMessage error={actionError} /> : null}
      <label htmlFor={`${id}-new`}>New e-mail address</label>
      <input
        id={`${id}-new`}
        type="email"
        autoComplete="email"
        value={address}
        onChange={(event) => setAddress(event.target.value)}
        aria-describedby={`${id}-help ${id}-error`}
        required
      />
      <p className="field-help muted" id={`${id}-help`}>
        We send a link to the new address; it replaces the current one only once you confirm it, and the current one is told.
      </p>
      <FieldError error={add.error} field="email" id={`${id}-error`} />
      <FormError error={add.error} fields={['email']} />
      <div className="row">
        <button type="submit" className="button" disabled={busy || !address.trim()}>
          {add.isPending ? 'Sending…' : 'Send confirmation link'}
        </button>
      </div>
    </form>
  );
}

function DownloadData() {
  const download = useDownloadData();
  const toast = useToast();
  return (
    <div>
      <p className="field-help muted" id="download-help">
        One JSON file: your profile, progress, XP ledger, answers and submissions, comments, reports and notifications.
      </p>
      <div className="row">
        <button
          type="button"
          className="button secondary"
          aria-describedby="download-help"
          disabled={download.isPending}
          onClick={() => download.mutate(undefined, { onSuccess: () => toast.show({ title: 'Your data was downloaded', tone: 'success' }) })}
        >
          {download.isPending ? 'Preparing your data…' : 'Download my data'}
        </button>
      </div>
      {download.error ? <ErrorMessage error={download.error} /> : null}
    </div>
  );
}

const days = (count: number) => `${count} day${count === 1 ? '' : 's'}`;

function DeleteAccount() {
  const terms = useQuery(settingsQueries.deletionTerms());
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const navigate = useNavigate();
  const zone = useTimeZone();
  const remove = useDeleteAccount((answer) => {
    const when = formatDateTime(answer.delete_after, zone);
    void navigate('/', {
      replace: true,
      state: flashState(`You are signed out. Your account will be deleted on ${when}; signing in before then cancels it.`),
    });
  });
  const id = useId();
  const close = () => {
    setOpen(false);
    setPassword('');
    remove.reset();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    remove.mutate({ password });
  };
  return (
    <>
      <h3>Delete my account</h3>
      {terms.isPending ? <Loading label="Loading…" /> : null}
      {terms.error ? <ErrorMessage error={terms.error} onRetry={() => void terms.refetch()} /> : null}
      {terms.data ? (
        <>
          <p className="field-help muted">
            Deleted after {days(terms.data.grace_days)}; signing in before then cancels it.
          </p>
          <div className="row">
            <button type="button" className="button danger" onClick={() => setOpen(true)}>
              Delete my account…
            </button>
          </div>
        </>
      ) : null}
      <Dialog open={open} title="Delete your account?" onClose={close}>
        <form className="form" onSubmit={onSubmit} noValidate>
          <p>
            You are signed out everywhere at once. Your account is deleted after {days(terms.data?.grace_days ?? 0)}:{' '}
            <strong>signing in before then cancels the deletion</strong>.
          </p>
          <p>
            Then your profile, addresses, answers, submissions and notifications are gone. Your comments stay, signed “A deleted learner”,
            and your XP stays in the boards&apos; totals without your name.
          </p>
          <label htmlFor={`${id}-password`}>Your password</label>
          <input
            id={`${id}-password`}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-describedby={`${id}-error`}
            data-autofocus
            required
          />
          <FieldError error={remove.error} field="password" id={`${id}-error`} />
          <FormError error={remove.error} fields={['password']} />
          <div className="row">
            <button type="submit" className="button danger" disabled={remove.isPending || !password}>
              {remove.isPending ? 'Deleting…' : 'Delete my account'}
            </button>
            <button type="button" className="button secondary" onClick={close}>
              Keep my account
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
