import { useMemo } from 'react';
import { seededShuffle } from '@/lib/shuffle';
import type { KindInputProps } from '../kinds';

/** Radios, or checkboxes when more than one option is right; after an answer each marked option says why. */
export function ChoiceInput({ check, draft, onChange, marks, promptId, idPrefix, seed }: KindInputProps<string[]>) {
  const options = useMemo(() => seededShuffle(check.options ?? [], seed), [check.options, seed]);
  const multiple = Boolean(check.multiple);
  const hintId = `${idPrefix}-hint`;
  const toggle = (id: string, on: boolean) => {
    if (!multiple) onChange([id]);
    else onChange(on ? [...draft, id] : draft.filter((picked) => picked !== id));
  };
  return (
    <fieldset className="check-options" aria-labelledby={promptId} aria-describedby={hintId}>
      <p id={hintId} className="check-hint">
        {multiple ? 'More than one is right: pick all that are.' : 'Pick one.'}
      </p>
      <ul>
        {options.map((option) => {
          const mark = marks?.[option.id];
          const markId = `${idPrefix}-mark-${option.id}`;
          const picked = draft.includes(option.id);
          return (
            <li key={option.id} className={mark ? (mark.correct ? 'marked-right' : picked ? 'marked-wrong' : 'marked-other') : undefined}>
              <label className="check-option">
                <input
                  type={multiple ? 'checkbox' : 'radio'}
                  name={`${idPrefix}-option`}
                  value={option.id}
                  checked={picked}
                  onChange={(event) => toggle(option.id, event.target.checked)}
                  aria-describedby={mark ? markId : undefined}
                />
                <span>{option.text}</span>
              </label>
              {mark ? (
                <p id={markId} className="check-mark">
                  <strong>{mark.correct ? '✓ Right' : '✗ Not right'}</strong>
                  {mark.explanation ? `: ${mark.explanation}` : ''}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
