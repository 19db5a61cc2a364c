import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { ErrorMessage, FieldError } from '@/components/ErrorMessage';
import { Loading } from '@/components/Loading';
import { useToast } from '@/components/Toasts';
import type { Profile, ProfileInput } from '@/lib/types';
import { settingsQueries, useEndSession, useUpdateProfile } from '../api';
import { useDocumentTitle } from '@/lib/useDocumentTitle';

export function SettingsPage() {
  const profile = useQuery(settingsQueries.profile());
  useDocumentTitle('Settings');
  return (
    <div className="settings">
      <h1>Settings</h1>
      {profile.isPending ? <Loading label="Loading your settings…" /> : null}
      {profile.error ? <ErrorMessage error={profile.error} onRetry={() => void profile.refetch()} /> : null}
      {profile.data ? <ProfileForm profile={profile.data} /> : null}
      {profile.data ? <Sessions /> : null}
    </div>
  );
}

function timeZones(current: string): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes(current) ? zones : [current, ...zones];
}

function ProfileForm({ profile }: { profile: Profile }) {
  const [form, setForm] = useState(profile);
  const update = useUpdateProfile();
  const toast = useToast();
  const id = useId();
  const zones = useMemo(() => timeZones(profile.time_zone), [profile.time_zone]);
  const set = <K extends keyof Profile>(key: K, value: Profile[K]) => setForm((current) => ({ ...current, [key]: value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(
      {
        display_name: form.display_name,
        // The picker offers the browser's zones; the server answers 400 to one it does not know.
        time_zone: form.time_zone as ProfileInput['time_zone'],
        reply_notifications: form.reply_notifications,
        email_notifications: form.email_notifications,
        show_on_leaderboard: form.show_on_leaderboard,
      },
      { onSuccess: () => toast.show({ title: 'Settings saved', tone: 'success' }) },
    );
  };

  const checkbox = (key: 'reply_notifications' | 'email_notifications' | 'show_on_leaderboard', label: string) => (
    <div className="toggle">
      <input id={`${id}-${key}`} type="checkbox" checked={form[key]} onChange={(event) => set(key, event.target.checked)} />
      <label htmlFor={`${id}-${key}`}>{label}</label>
    </div>
  );

  return (
    <form className="form card" onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Profile</h2>
      <p className="muted">Signed in as {profile.email}</p>
      <label htmlFor={`${id}-name`}>Display name</label>
      <input
        id={`${id}-name`}
        value={form.display_name}
        onChange={(event) => set('display_name', event.target.value)}
        maxLength={60}
        autoComplete="nickname"
        aria-describedby={`${id}-name-error`}
      />
      <FieldError error={update.error} field="display_name" id={`${id}-name-error`} />
      <label htmlFor={`${id}-tz`}>Time zone</label>
      <select id={`${id}-tz`} value={form.time_zone} onChange={(event) => set('time_zone', event.target.value)} aria-describedby={`${id}-tz-error`}>
        {zones.map((zone) => (
          <option key={zone} value={zone}>
            {zone}
          </option>
        ))}
      </select>
      <FieldError error={update.error} field="time_zone" id={`${id}-tz-error`} />
      <fieldset>
        <legend>Notifications and privacy</legend>
        {checkbox('reply_notifications', 'Notify me of replies to my comments')}
        {checkbox('email_notifications', 'Also send notifications by e-mail')}
        {checkbox('show_on_leaderboard', 'Show me on the leaderboard')}
      </fieldset>
      {update.error ? <ErrorMessage error={update.error} /> : null}
      <button type="submit" className="button" disabled={update.isPending}>
        {update.isPending ? 'Saving…' : 'Save settings'}
      </button>
    </form>
  );
}

function Sessions() {
  const sessions = useQuery(settingsQueries.sessions());
  const end = useEndSession();
  return (
    <section className="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Signed-in devices</h2>
      {sessions.isPending ? <Loading label="Loading sessions…" /> : null}
      {sessions.error ? <ErrorMessage error={sessions.error} onRetry={() => void sessions.refetch()} /> : null}
      {end.error ? <ErrorMessage error={end.error} /> : null}
      <ul className="session-list">
        {sessions.data?.map((session) => (
          <li key={session.id}>
            <div>
              <p>
                <strong>{session.user_agent || 'Unknown device'}</strong>
                {session.is_current ? <span className="badge"> This device</span> : null}
              </p>
              <p className="muted">
                {session.ip} · signed in {new Date(session.created_at * 1000).toLocaleString()}
              </p>
            </div>
            {!session.is_current ? (
              <button type="button" className="button small secondary" onClick={() => end.mutate(session.id)} disabled={end.isPending}>
                Sign out there
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
