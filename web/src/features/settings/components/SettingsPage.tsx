import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { CharCount, charCount } from '@/components/CharCount';
import { ErrorMessage, FieldError, FormError } from '@/components/ErrorMessage';
import { GoalPicker } from '@/components/GoalPicker';
import { Loading } from '@/components/Loading';
import { useToast } from '@/components/Toasts';
import { ApiError } from '@/lib/api';
import { GOAL_CHOICES, useSetDailyGoal, type GoalXp } from '@/lib/dailyGoal';
import { progressQueries } from '@/lib/queries';
import { useTimeZone } from '@/lib/session';
import { browserZone, formatDateTime, searchZones, zoneLabel, zoneList } from '@/lib/timeZones';
import type { Profile, ProfileInput } from '@/lib/types';
import { deviceName } from '@/lib/userAgent';
import { useDocumentTitle } from '@/lib/useDocumentTitle';
import { LeagueParticipation } from './LeagueParticipation';
import { settingsQueries, useEndSession, useUpdateProfile } from '../api';
import { AccountSection } from './Account';
import { PushOnThisDevice } from './PushOnThisDevice';
import rules from '@/lib/rules.json';

/** The server's limit (accounts.serializers.ProfileInputSerializer.display_name). */
/** The server's limit on a display name (through lib/rules.json). */
export const DISPLAY_NAME_MAX = rules.display_name_max_length;

export function SettingsPage() {
  const profile = useQuery(settingsQueries.profile());
  useDocumentTitle('Settings');
  return (
    <div className="settings">
      <h1>Settings</h1>
      {profile.isPending ? <Loading label="Loading your settings…" /> : null}
      {profile.error ? <ErrorMessage error={profile.error} onRetry={() => void profile.refetch()} /> : null}
      {profile.data ? <ProfileForm profile={profile.data} /> : null}
      {profile.data ? <DailyGoalForm /> : null}
      {profile.data ? <LeagueParticipation /> : null}
      {profile.data ? <Sessions /> : null}
      {profile.data ? <AccountSection /> : null}
    </div>
  );
}

const FIELDS = ['display_name', 'time_zone', 'reply_notifications', 'email_notifications', 'show_on_leaderboard', 'reminder_time'];
/** The reminder's time when a learner first turns it on: an evening, when a day is still to play for. */
const FIRST_REMINDER_TIME = '19:00';

function ProfileForm({ profile }: { profile: Profile }) {
  const [form, setForm] = useState(profile);
  const [query, setQuery] = useState('');
  const update = useUpdateProfile();
  const toast = useToast();
  const id = useId();
  const here = useMemo(() => browserZone(), []);
  const zones = useMemo(() => zoneList([profile.time_zone, form.time_zone, here]), [profile.time_zone, form.time_zone, here]);
  const shown = useMemo(() => {
    const found = searchZones(zones, query);
    return found.includes(form.time_zone) ? found : [form.time_zone, ...found];
  }, [zones, query, form.time_zone]);
  const set = <K extends keyof Profile>(key: K, value: Profile[K]) => setForm((current) => ({ ...current, [key]: value }));
  const tooLong = charCount(form.display_name) > DISPLAY_NAME_MAX;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (tooLong) return;
    update.mutate(
      {
        display_name: form.display_name,
        // The picker offers the browser's zones; the server answers 400 to one it does not know.
        time_zone: form.time_zone as ProfileInput['time_zone'],
        reply_notifications: form.reply_notifications,
        email_notifications: form.email_notifications,
        show_on_leaderboard: form.show_on_leaderboard,
        reminder_time: form.reminder_time,
      },
      {
        onSuccess: (saved) => {
          setForm(saved);
          toast.show({ title: 'Settings saved', tone: 'success' });
        },
      },
    );
  };

  const checkbox = (key: 'reply_notifications' | 'email_notifications' | 'show_on_leaderboard', label: string) => (
    <div className="toggle">
      <input id={`${id}-${key}`} type="checkbox" checked={form[key]} onChange={(event) => set(key, event.target.checked)} />
      <label htmlFor={`${id}-${key}`}>{label}</label>
    </div>
  );

  return (
    <form className="form card" onSubmit={onSubmit} aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`}>Profile</h2>
      <p className="muted">Signed in as {profile.email}</p>
      <label htmlFor={`${id}-name`}>Display name</label>
      <input
        id={`${id}-name`}
        value={form.display_name}
        onChange={(event) => set('display_name', event.target.value)}
        placeholder={profile.public_name}
        autoComplete="nickname"
        dir="auto"
        aria-invalid={tooLong || (update.error instanceof ApiError && Boolean(update.error.fieldError('display_name')))}
        aria-describedby={`${id}-name-help ${id}-name-count ${id}-name-error`}
      />
      <p className="field-help muted" id={`${id}-name-help`}>
        {form.display_name.trim()
          ? 'Shown next to your comments and on the leaderboard.'
          : `Empty: others see you as “${profile.public_name}”.`}
      </p>
      <CharCount text={form.display_name} max={DISPLAY_NAME_MAX} id={`${id}-name-count`} />
      <FieldError error={update.error} field="display_name" id={`${id}-name-error`} />

      <label htmlFor={`${id}-tz`}>Time zone</label>
      <input
        id={`${id}-tz-search`}
        type="search"
        className="zone-search"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        placeholder="Search: a city or region"
        aria-label="Find a zone by city or region"
        aria-controls={`${id}-tz`}
      />
      <select
        id={`${id}-tz`}
        value={form.time_zone}
        onChange={(event) => set('time_zone', event.target.value)}
        aria-describedby={`${id}-tz-help ${id}-tz-error`}
      >
        {shown.map((zone) => (
          <option key={zone} value={zone}>
            {zoneLabel(zone)}
          </option>
        ))}
      </select>
      <p className="field-help muted" id={`${id}-tz-help`}>
        {query ? `${shown.length} zone${shown.length === 1 ? '' : 's'} match. ` : ''}
        Times in the app are shown in this zone; your streak&apos;s days follow it.
      </p>
      {form.time_zone !== here ? (
        <p>
          <button type="button" className="link-button" onClick={() => set('time_zone', here)}>
            Use this device&apos;s time zone ({zoneLabel(here)})
          </button>
        </p>
      ) : null}
      <FieldError error={update.error} field="time_zone" id={`${id}-tz-error`} />
      <fieldset>
        <legend>Notifications and privacy</legend>
        {checkbox('reply_notifications', 'Follow the lessons I comment on: notify me of their new comments and replies')}
        {checkbox('email_notifications', 'Also send notifications by e-mail')}
        {checkbox('show_on_leaderboard', 'Show me on the leaderboard')}
        <div className="toggle">
          <input
            id={`${id}-reminder`}
            type="checkbox"
            checked={form.reminder_time !== null}
            onChange={(event) => set('reminder_time', event.target.checked ? (profile.reminder_time ?? FIRST_REMINDER_TIME) : null)}
          />
          <label htmlFor={`${id}-reminder`}>Remind me each day</label>
        </div>
        {form.reminder_time !== null ? (
          <>
            <label htmlFor={`${id}-reminder-time`}>Reminder time</label>
            <input
              id={`${id}-reminder-time`}
              type="time"
              step={60}
              required
              value={form.reminder_time}
              onChange={(event) => set('reminder_time', event.target.value || FIRST_REMINDER_TIME)}
              aria-describedby={`${id}-reminder-help ${id}-reminder-error`}
            />
            <p className="field-help muted" id={`${id}-reminder-help`}>
              At this time in your time zone, only on a day you have not yet kept your streak or met your goal: in the app, by e-mail when
              notifications go by e-mail, and as a notification on the devices where you allow it.
            </p>
            <FieldError error={update.error} field="reminder_time" id={`${id}-reminder-error`} />
            <PushOnThisDevice />
          </>
        ) : null}
      </fieldset>
      <FormError error={update.error} fields={FIELDS} />
      <div className="row">
        <button type="submit" className="button" disabled={update.isPending || tooLong} aria-describedby={tooLong ? `${id}-name-count` : undefined}>
          {update.isPending ? 'Saving…' : 'Save settings'}
        </button>
        {tooLong ? <span className="muted">Shorten the display name to save.</span> : null}
      </div>
    </form>
  );
}

const isGoal = (xp: number | null | undefined): xp is GoalXp => GOAL_CHOICES.some((choice) => choice === xp);

/** The XP a day to aim for (PUT /me/daily-goal), shown in the top bar and celebrated when met. */
function DailyGoalForm() {
  const summary = useQuery(progressQueries.summary(''));
  const current = summary.data?.daily_goal.xp;
  const [choice, setChoice] = useState<GoalXp | null>(null);
  const save = useSetDailyGoal();
  const toast = useToast();
  const shown = choice ?? (isGoal(current) ? current : null);
  // The top bar's "Set a goal" links here (#daily-goal); the router does not scroll to a hash.
  useEffect(() => {
    if (window.location.hash === '#daily-goal') document.getElementById('daily-goal')?.scrollIntoView();
  }, []);
  const submit = (xp: GoalXp | null) =>
    save.mutate(xp, {
      onSuccess: () => {
        setChoice(null);
        toast.show({ title: xp === null ? 'Daily goal cleared' : `Daily goal set: ${xp} XP a day`, tone: 'success' });
      },
    });
  return (
    <form
      className="form card"
      id="daily-goal"
      aria-labelledby="daily-goal-title"
      onSubmit={(event) => {
        event.preventDefault();
        if (shown !== null) submit(shown);
      }}
    >
      <h2 id="daily-goal-title">Daily goal</h2>
      {summary.error ? <ErrorMessage error={summary.error} onRetry={() => void summary.refetch()} /> : null}
      <p className="field-help muted">
        {current ? `Now: ${current} XP a day.` : 'No goal yet.'} Days follow your time zone; reaching the goal is celebrated.
      </p>
      <GoalPicker value={shown} onChange={setChoice} legend="XP to earn each day" />
      {save.error ? <ErrorMessage error={save.error} /> : null}
      <div className="row">
        <button type="submit" className="button" disabled={save.isPending || shown === null || shown === current}>
          {save.isPending ? 'Saving…' : 'Save goal'}
        </button>
        {current ? (
          <button type="button" className="link-button" disabled={save.isPending} onClick={() => submit(null)}>
            Clear the goal
          </button>
        ) : null}
      </div>
    </form>
  );
}

function Sessions() {
  const sessions = useQuery(settingsQueries.sessions());
  const end = useEndSession();
  const zone = useTimeZone();
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
                <strong title={session.user_agent}>{deviceName(session.user_agent)}</strong>
                {session.is_current ? <span className="badge"> This device</span> : null}
              </p>
              <p className="muted">
                {session.ip} · signed in {formatDateTime(session.created_at * 1000, zone)}
                {session.last_seen_at ? ` · last seen ${formatDateTime(session.last_seen_at * 1000, zone)}` : ''}
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
