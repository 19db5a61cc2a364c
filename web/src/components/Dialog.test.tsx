import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Dialog } from './Dialog';
import { ToastProvider, useToast } from './Toasts';

/** A page with an opener, a dialog that can show a toast, and an action that removes the opener. */
function Page({ removeOpenerOnConfirm = false }: { removeOpenerOnConfirm?: boolean }) {
  const [open, setOpen] = useState(false);
  const [gone, setGone] = useState(false);
  const toast = useToast();
  return (
    <main>
      <button type="button">Before</button>
      <article aria-label="A comment">
        {gone ? <p>[deleted]</p> : <button type="button" onClick={() => setOpen(true)}>Open</button>}
      </article>
      <button type="button" onClick={() => toast.show({ title: 'Saved outside', tone: 'success' })}>
        Toast outside
      </button>
      <Dialog open={open} title="Are you sure?" onClose={() => setOpen(false)}>
        <button type="button" onClick={() => toast.show({ title: 'Saved inside', tone: 'success' })}>
          Toast
        </button>
        <button
          type="button"
          onClick={() => {
            if (removeOpenerOnConfirm) setGone(true);
            setOpen(false);
          }}
        >
          Confirm
        </button>
      </Dialog>
    </main>
  );
}

const renderPage = (props: { removeOpenerOnConfirm?: boolean } = {}) =>
  render(
    <ToastProvider>
      <Page {...props} />
    </ToastProvider>,
  );

describe('Toasts and dialogs', () => {
  it('draws a toast shown while a dialog is open inside the dialog, above its backdrop', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog', { name: 'Are you sure?' });
    await user.click(within(dialog).getByRole('button', { name: 'Toast' }));
    const region = within(dialog).getByRole('status');
    expect(region).toHaveTextContent('Saved inside');
    // Still one live region on the page, so nothing is announced twice.
    expect(screen.getAllByRole('status')).toHaveLength(1);
  });

  it('moves toasts already on screen into a dialog that opens, and back out when it closes', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(screen.getByRole('button', { name: 'Toast outside' }));
    await user.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog', { name: 'Are you sure?' });
    expect(within(dialog).getByRole('status')).toHaveTextContent('Saved outside');
    await user.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Saved outside')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Toast' }));
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Saved inside');
  });

  it('gives focus back to the opener when closed with its Close button', async () => {
    const user = userEvent.setup();
    renderPage();
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(opener).toHaveFocus();
  });

  it('gives focus back to the opener when closed with Escape', async () => {
    const user = userEvent.setup();
    renderPage();
    const opener = screen.getByRole('button', { name: 'Open' });
    opener.focus();
    await user.keyboard('{Enter}');
    // jsdom has no modal dialogs: Escape's "cancel" event is what the browser sends.
    fireEvent(screen.getByRole('dialog'), new Event('cancel', { cancelable: true }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('gives focus back to the opener’s container when the dialog’s action removed the opener', async () => {
    const user = userEvent.setup();
    renderPage({ removeOpenerOnConfirm: true });
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByRole('article', { name: 'A comment' })).toHaveFocus();
  });
});
