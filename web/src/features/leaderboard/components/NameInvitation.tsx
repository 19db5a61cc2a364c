import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { FieldError, FormError } from '@/components/ErrorMessage';
import { useToast } from '@/components/Toasts';
import { profileQuery, useMarkNameInvitation, useUpdateProfile } from '@/lib/profile';
import './NameInvitation.css';
import rules from '@/lib/rules.json';

/**
 * Invites a learner the boards still show by their handle ("Learner 380293") to choose a name:
 * once per account. The server records the first showing (`name_invited_at`), so neither a
 * reload nor another device asks again; on this page it stays until chosen or dismissed. Not a
 * dialog: the board stays readable and usable around it.
 */
export function NameInvitation() {
  const profile = useQuery(profileQuery());
  const { mutate: markShown, isSuccess: marked } = useMarkNameInvitation();
  const save = useUpdateProfile();
  const toast = useToast();
  const [invited, setInvited] = useState(false);
  const [closed, setClosed] = useState(false);
  const [name, setName] = useState('');
  const id = useId();

  const due = profile.data !== undefined && !profile.data.display_name && profile.data.name_invited_at === null;
  // Latched on first sight: marking it shown changes the profile, and the invitation must stay.
  if (due && !invited) setInvited(true);
  useEffect(() => {
    if (invited) markShown();
  }, [invited, markShown]);

  if (!invited || closed || !profile.data) return null;
  const handle = profile.data.public_name;
  const dismiss = () => {
    setClosed(true);
    // The mark on showing may have failed (offline): dismissing must record it too.
    if (!marked) markShown();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { display_name: name },
      {
        onSuccess: (saved) => {
          setClosed(true);
          toast.show({ title: 'Name saved', body: `Others now see you as ${saved.public_name}.`, tone: 'success' });
        },
      },
    );
  };
  return (
    <section className="note name-invitation" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Choose your name</h2>
      <p id={`${id}-help`}>
        Others see you as <strong>{handle}</strong>. Pick a name for the leaderboard and your comments; you can change it in Settings.
      </p>
      <form className="form" onSubmit={onSubmit} noValidate>
        <label htmlFor={`${id}-name`}>Your name</label>
        <input
          id={`${id}-name`}
          value={name}
          maxLength={rules.display_name_max_length}
          autoComplete="nickname"
          onChange={(event) => setName(event.target.value)}
          aria-describedby={`${id}-help ${id}-error`}
        />
        <FieldError error={save.error} field="display_name" id={`${id}-error`} />
        <FormError error={save.error} fields={['display_name']} />
        <div className="row">
          <button type="submit" className="button small" disabled={save.isPending || !name.trim()}>
            {save.isPending ? 'Saving…' : 'Use this name'}
          </button>
          <button type="button" className="button small secondary" onClick={dismiss}>
            Not now
          </button>
        </div>
      </form>
    </section>
  );
}
