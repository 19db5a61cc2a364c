import { useId, useState, type FormEvent } from 'react';
import { CharCount, charCount } from '@/components/CharCount';
import { Dialog } from '@/components/Dialog';
import { FieldError, FormError } from '@/components/ErrorMessage';
import { useToast } from '@/components/Toasts';
import type { Block, ReportKind } from '@/lib/types';
import { KINDS, useReportIssue } from '../api';
import rules from '@/lib/rules.json';

/** The server's limit (community.models.REPORT_MESSAGE_MAX_LENGTH, through lib/rules.json). */
const REPORT_MAX_LENGTH = rules.report_message_max_length;

/** A part of the lesson a report can be about. */
export interface ReportPlace {
  key: string;
  /** As the lesson shows it: "Table: Width and depth of some well-known models". */
  label: string;
  /** "this table": what the part's own report button says. */
  noun: string;
  /** The block's id; null for parts that are not blocks (links, the exercise), named in the message instead. */
  block: number | null;
}

export const WHOLE_LESSON = 'lesson';

/** Every part of a lesson, in page order: its blocks, its links, its exercise. */
export function reportPlaces(blocks: Block[], hasLinks: boolean, exercise: { title: string } | null): ReportPlace[] {
  const places: ReportPlace[] = blocks.map((block, index) => {
    const { key, kind, noun } = blockPlace(block);
    return { key, label: `${index + 1}. ${kind}: ${shorten(blockText(block))}`, noun, block: block.id };
  });
  if (hasLinks) places.push(LINKS_PLACE);
  if (exercise) places.push({ ...EXERCISE_PLACE, label: `Exercise: ${shorten(exercise.title)}` });
  return places;
}

/** What a part's own report button needs: cheap, so a lesson's first render reads no block's text. */
export type ButtonPlace = Pick<ReportPlace, 'key' | 'noun'>;

export const LINKS_PLACE: ReportPlace = { key: 'links', label: 'Further reading (the links)', noun: 'these links', block: null };
export const EXERCISE_PLACE: ReportPlace = { key: 'exercise', label: 'Exercise', noun: 'this exercise', block: null };

const CALLOUT = { note: 'Note', tip: 'Tip', warning: 'Warning' } as const;

/** A block's key, kind ("Table") and noun ("this table"). */
export function blockPlace(block: Block): ButtonPlace & { kind: string } {
  const key = `block-${block.id}`;
  switch (block.kind) {
    case 'table':
      return { key, kind: 'Table', noun: 'this table' };
    case 'code':
      return { key, kind: 'Code', noun: 'this code' };
    case 'callout': {
      const label = CALLOUT[block.style as keyof typeof CALLOUT] ?? 'Note';
      return { key, kind: label, noun: `this ${label.toLowerCase()}` };
    }
    case 'check':
      // Its button reads as the server's first answer draws it (pages/web.py: "this text").
      return { key, kind: 'Question', noun: 'this text' };
    default:
      return { key, kind: 'Text', noun: 'this text' };
  }
}

/** What the dialog's list shows of a block: its caption, title or first words. */
function blockText(block: Block): string {
  switch (block.kind) {
    case 'table':
      return block.caption || block.columns.join(', ');
    case 'code':
      return block.title || block.source;
    default:
      return 'html' in block ? textOf(block.html) : '';
  }
}

/** The text a reader sees in sanitized HTML (an inert document: nothing loads, nothing runs). */
function textOf(html: string): string {
  return new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
}

function shorten(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 57).trimEnd()}…` : line;
}

/** The small report action under a part of the lesson. */
export function ReportButton({ place, onReport }: { place: ButtonPlace; onReport: (key: string) => void }) {
  return (
    <p className="part-report">
      <button type="button" className="link-button" aria-label={`Report ${place.noun}`} onClick={() => onReport(place.key)}>
        Report
      </button>
    </p>
  );
}

interface Props {
  lesson: string;
  places: ReportPlace[];
  signedIn: boolean;
  /** The part to report on while the dialog is open (WHOLE_LESSON for none); null: closed. */
  place: string | null;
  onClose: () => void;
}

export function ReportDialog({ lesson, places, signedIn, place, onClose }: Props) {
  return (
    <Dialog open={place !== null} title="Report an issue" onClose={onClose}>
      {place !== null ? <ReportForm lesson={lesson} places={places} signedIn={signedIn} initial={place} onDone={onClose} /> : null}
    </Dialog>
  );
}

interface FormProps {
  lesson: string;
  places: ReportPlace[];
  signedIn: boolean;
  initial: string;
  onDone: () => void;
}

function ReportForm({ lesson, places, signedIn, initial, onDone }: FormProps) {
  const [kind, setKind] = useState<ReportKind>('typo');
  const [message, setMessage] = useState('');
  const [where, setWhere] = useState(places.some((candidate) => candidate.key === initial) ? initial : WHOLE_LESSON);
  const [email, setEmail] = useState('');
  const report = useReportIssue(lesson);
  const toast = useToast();
  const id = useId();
  const place = places.find((candidate) => candidate.key === where);
  // Parts that are not blocks are named in the message (the API takes a block id only).
  const prefix = place && place.block === null ? `[${place.label}] ` : '';
  const max = REPORT_MAX_LENGTH - charCount(prefix);
  const reason = !message.trim() ? 'Describe the problem to send the report.' : charCount(message) > max ? 'Shorten the details to send the report.' : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (reason) return;
    report.mutate(
      {
        kind,
        message: prefix + message,
        block: place?.block ?? null,
        ...(!signedIn && email ? { contact_email: email } : {}),
      },
      {
        onSuccess: () => {
          toast.show({ title: 'Thanks — your report was sent.', tone: 'success' });
          onDone();
        },
      },
    );
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <fieldset>
        <legend>
          What is wrong? <span className="required">(required)</span>
        </legend>
        {KINDS.map((option) => (
          <label key={option.value} className="radio">
            <input type="radio" name={`${id}-kind`} value={option.value} checked={kind === option.value} onChange={() => setKind(option.value)} />
            {option.label}
          </label>
        ))}
      </fieldset>
      <label htmlFor={`${id}-block`}>Where (optional)</label>
      <select id={`${id}-block`} value={where} onChange={(event) => setWhere(event.target.value)}>
        <option value={WHOLE_LESSON}>The whole lesson</option>
        {places.map((candidate) => (
          <option key={candidate.key} value={candidate.key}>
            {candidate.label}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-message`}>
        Details <span className="required">(required)</span>
      </label>
      <textarea
        id={`${id}-message`}
        value={message}
        onChange={(event) => setMessage(event.target.value)}
        rows={4}
        required
        aria-required="true"
        dir="auto"
        aria-describedby={`${id}-message-count ${id}-message-error`}
      />
      <CharCount text={message} max={max} id={`${id}-message-count`} />
      <FieldError error={report.error} field="message" id={`${id}-message-error`} />
      {!signedIn ? (
        <>
          <label htmlFor={`${id}-email`}>Your e-mail, if you want an answer (optional)</label>
          <input
            id={`${id}-email`}
            type="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            autoComplete="email"
            aria-describedby={`${id}-email-error`}
          />
          <FieldError error={report.error} field="contact_email" id={`${id}-email-error`} />
        </>
      ) : null}
      <FormError error={report.error} fields={['message', 'contact_email']} />
      <div className="row">
        <button type="submit" className="button" disabled={report.isPending || reason !== null} aria-describedby={reason ? `${id}-reason` : undefined}>
          {report.isPending ? 'Sending…' : 'Send report'}
        </button>
        <button type="button" className="button secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
      {reason ? (
        <p className="muted" id={`${id}-reason`}>
          {reason}
        </p>
      ) : null}
    </form>
  );
}
