// Each check type is one entry: its first answer, the answer it posts, what is missing before
// posting, its control and how its revealed solution reads. A new type is a new entry.
import type { ComponentType, ReactNode } from 'react';
import type { CheckAnswer } from '@/lib/progressStore';
import { seededShuffle } from '@/lib/shuffle';
import type { Check, CheckMark, CheckType } from '@/lib/types';
import { ChoiceInput } from './components/ChoiceInput';
import { NumericInput } from './components/NumericInput';
import { OrderingInput } from './components/OrderingInput';

export interface KindInputProps<Draft> {
  check: Check;
  draft: Draft;
  onChange: (draft: Draft) => void;
  /** Per option or item, from the last answer: shown until the learner changes it. */
  marks: Record<string, CheckMark> | null;
  /** The id of the prompt, which labels the control, and a prefix for the control's own ids. */
  promptId: string;
  idPrefix: string;
  /** Decides the order options are shown in: the same for a learner's device and check. */
  seed: string;
}

export interface CheckKind<Draft> {
  initial: (check: Check, seed: string) => Draft;
  answer: (draft: Draft) => CheckAnswer;
  /** Why the draft cannot be sent yet, or null. */
  missing: (draft: Draft, check: Check) => string | null;
  Input: ComponentType<KindInputProps<Draft>>;
  /** The revealed answer, in words. */
  solution: (check: Check, solution: unknown) => ReactNode;
}

const ids = (solution: unknown, field: 'options' | 'items'): string[] => {
  const list = (solution as Record<string, unknown> | null)?.[field];
  return Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string') : [];
};
const textOf = (check: Check, id: string) => [...(check.options ?? []), ...(check.items ?? [])].find((option) => option.id === id)?.text ?? id;

const numeric: CheckKind<string> = {
  initial: () => '',
  answer: (value) => ({ value }),
  missing: (value) => (value.trim() ? null : 'Type a number first.'),
  Input: NumericInput,
  solution: (check, solution) => {
    const { value, unit } = (solution ?? {}) as { value?: string; unit?: string };
    return (
      <p>
        <strong>{value}</strong>
        {unit || check.unit ? ` ${unit || check.unit}` : ''}
      </p>
    );
  },
};

const choice: CheckKind<string[]> = {
  initial: () => [],
  answer: (options) => ({ options }),
  missing: (options, check) => (options.length ? null : check.multiple ? 'Pick the options that are right first.' : 'Pick an option first.'),
  Input: ChoiceInput,
  solution: (check, solution) => (
    <ul>
      {ids(solution, 'options').map((id) => (
        <li key={id}>{textOf(check, id)}</li>
      ))}
    </ul>
  ),
};

const ordering: CheckKind<string[]> = {
  initial: (check, seed) => seededShuffle(check.items ?? [], seed).map((item) => item.id),
  answer: (items) => ({ items }),
  missing: () => null,
  Input: OrderingInput,
  solution: (check, solution) => (
    <ol>
      {ids(solution, 'items').map((id) => (
        <li key={id}>{textOf(check, id)}</li>
      ))}
    </ol>
  ),
};

/** Every type's entry; a check's draft is its entry's own, so the callers hold it as unknown. */
export const CHECK_KINDS: Record<CheckType, CheckKind<unknown>> = {
  numeric: numeric as unknown as CheckKind<unknown>,
  choice: choice as unknown as CheckKind<unknown>,
  ordering: ordering as unknown as CheckKind<unknown>,
};
