import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useToastLayer } from './Toasts';

interface Props {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
}

/**
 * A modal dialog on the native <dialog>: showModal() makes the rest of the page inert (focus
 * stays inside), Escape closes it, and focus returns to where it was. Focus starts on the
 * element marked `data-autofocus`, if any. Toasts shown while it is open are drawn inside it.
 */
export function Dialog({ open, title, onClose, children, className }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const enterToastLayer = useToastLayer();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const openerAncestors = ancestors(opener);
    if (!dialog.open) dialog.showModal();
    const leaveToastLayer = enterToastLayer(dialog);
    // showModal() focuses the first control (the close button); a dialog may name a better one.
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      leaveToastLayer();
      if (dialog.open) dialog.close();
      returnFocus(opener, openerAncestors);
    };
  }, [open, enterToastLayer]);

  if (!open) return null;
  return (
    <dialog
      ref={ref}
      className={className ? `dialog ${className}` : 'dialog'}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="dialog-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </div>
      {children}
    </dialog>
  );
}

function ancestors(element: HTMLElement | null): HTMLElement[] {
  const chain: HTMLElement[] = [];
  for (let each = element?.parentElement; each && each !== document.body; each = each.parentElement) chain.push(each);
  return chain;
}

/**
 * Back to the element that opened the dialog. When the dialog's action took that element away
 * or disabled it (a deleted comment loses its Delete button), to the nearest of its former
 * containers still on the page (the comment), so keyboard and screen-reader users go on from
 * where they were rather than from the top of the page.
 */
function returnFocus(opener: HTMLElement | null, openerAncestors: HTMLElement[]): void {
  if (!opener || opener === document.body) return;
  if (opener.isConnected && !opener.matches(':disabled')) {
    opener.focus();
    if (document.activeElement === opener) return;
  }
  const container = openerAncestors.find((each) => each.isConnected);
  if (!container) return;
  if (!container.hasAttribute('tabindex')) container.setAttribute('tabindex', '-1');
  container.focus();
}
