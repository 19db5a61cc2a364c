import { useId, useState, type FormEvent } from 'react';
import { Dialog } from '@/components/Dialog';
import { ErrorMessage, FieldError } from '@/components/ErrorMessage';
import { useToast } from '@/components/Toasts';
import type { Block, ReportKind } from '@/lib/types';
import { useReportIssue } from '../api';

const KINDS: { value: ReportKind; label: string }[] = [
  { value: 'typo', label: 'Typo' },
  { value: 'incorrect', label: 'Something is incorrect' },
  { value: 'broken_link', label: 'Broken link' },
  { value: 'unclear', label: 'Unclear' },
  { value: 'other', label: 'Other' },
];

interface Props {
  lesson: string;
  blocks: Block[];
  signedIn: boolean;
}

export function ReportIssue({ lesson, blocks, signedIn }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button secondary" onClick={() => setOpen(true)}>
        Report an issue
      </button>
      <Dialog open={open} title="Report an issue" onClose={() => setOpen(false)}>
        <ReportForm lesson={lesson} blocks={blocks} signedIn={signedIn} onDone={() => setOpen(false)} />
      </Dialog>
    </>
  );
}

function ReportForm({ lesson, blocks, signedIn, onDone }: Props & { onDone: () => void }) {
  const [kind, setKind] = useState<ReportKind>('typo');
  const [message, setMessage] = useState('');
  const [block, setBlock] = useState('');
  const [email, setEmail] = useState('');
  const report = useReportIssue(lesson);
  const toast = useToast();
  const id = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    report.mutate(
      { kind, message, block: block ? Number(block) : null, ...(!signedIn && email ? { contact_email: email } : {}) },
      {
        onSuccess: () => {
          toast.show({ title: 'Thanks — your report was sent.', tone: 'success' });
          onDone();
        },
      },
    );
  };

  return (
    <form className="form" onSubmit={onSubmit}>
      <fieldset>
        <legend>What is wrong?</legend>
        {KINDS.map((option) => (
          <label key={option.value} className="radio">
            <input type="radio" name={`${id}-kind`} value={option.value} checked={kind === option.value} onChange={() => setKind(option.value)} />
            {option.label}
          </label>
        ))}
      </fieldset>
      <label htmlFor={`${id}-block`}>Where (optional)</label>
      <select id={`${id}-block`} value={block} onChange={(event) => setBlock(event.target.value)}>
        <option value="">The whole lesson</option>
        {blocks.map((candidate, index) => (
          <option key={candidate.id} value={candidate.id}>
            {blockLabel(candidate, index)}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-message`}>Details</label>
      <textarea
        id={`${id}-message`}
        value={message}
        onChange={(event) => setMessage(event.target.value)}
        rows={4}
        required
        aria-describedby={`${id}-message-error`}
      />
      <FieldError error={report.error} field="message" id={`${id}-message-error`} />
      {!signedIn ? (
        <>
          <label htmlFor={`${id}-email`}>Your e-mail, if you want an answer (optional)</label>
          <input id={`${id}-email`} type="email" value={email} onChange={(event) => setEmail(event.target.value)} autoComplete="email" />
          <FieldError error={report.error} field="contact_email" id={`${id}-email-error`} />
        </>
      ) : null}
      {report.error ? <ErrorMessage error={report.error} /> : null}
      <div className="row">
        <button type="submit" className="button" disabled={report.isPending || !message.trim()}>
          {report.isPending ? 'Sending…' : 'Send report'}
        </button>
        <button type="button" className="button secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** A short label for a block, for the report dialog's block picker. */
function blockLabel(block: Block, index: number): string {
  const text =
    block.kind === 'table'
      ? block.caption
      : block.kind === 'code'
        ? block.title
        : block.markdown.replace(/[*_`#>[\]()]/g, '').trim();
  const short = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  return `${index + 1}. ${block.kind}: ${short}`;
}
