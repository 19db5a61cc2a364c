import { useId, useState, type FormEvent } from 'react';
import { ErrorMessage, FieldError } from '@/components/ErrorMessage';
import { ApiError } from '@/lib/api';

interface Props {
  submitLabel: string;
  pendingLabel: string;
  newPassword?: boolean;
  pending: boolean;
  error: unknown;
  onSubmit: (input: { email: string; password: string }) => void;
}

/** E-mail and password, with allauth's field errors next to their fields. */
export function AuthForm({ submitLabel, pendingLabel, newPassword = false, pending, error, onSubmit }: Props) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ email, password });
  };
  const fieldErrorsOnly =
    error instanceof ApiError && Object.keys(error.errors).every((field) => field === 'email' || field === 'password') && Object.keys(error.errors).length > 0;
  return (
    <form className="form card" onSubmit={submit}>
      <label htmlFor={`${id}-email`}>E-mail</label>
      <input
        id={`${id}-email`}
        type="email"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        autoComplete="email"
        required
        aria-describedby={`${id}-email-error`}
      />
      <FieldError error={error} field="email" id={`${id}-email-error`} />
      <label htmlFor={`${id}-password`}>Password</label>
      <input
        id={`${id}-password`}
        type="password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        autoComplete={newPassword ? 'new-password' : 'current-password'}
        required
        minLength={newPassword ? 8 : undefined}
        aria-describedby={`${id}-password-error`}
      />
      <FieldError error={error} field="password" id={`${id}-password-error`} />
      {error && !fieldErrorsOnly ? <ErrorMessage error={error} /> : null}
      <button type="submit" className="button" disabled={pending}>
        {pending ? pendingLabel : submitLabel}
      </button>
    </form>
  );
}
