import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

// A one-time message for the page a flow lands on ("Welcome", "E-mail confirmed"): the flow
// navigates with `flashState(text)`, the layout's live region shows it on that page only.
// It survives neither a reload nor Back (the history entry is replaced without it).

interface FlashState {
  flash: string;
}

export function flashState(text: string): FlashState {
  return { flash: text };
}

function flashOf(state: unknown): string | null {
  const flash = (state as Partial<FlashState> | null)?.flash;
  return typeof flash === 'string' && flash ? flash : null;
}

/** Always rendered, so screen readers know the live region before a message arrives in it. */
export function FlashBanner() {
  const location = useLocation();
  const navigate = useNavigate();
  const incoming = flashOf(location.state);
  const [shown, setShown] = useState<{ text: string; path: string; key: string } | null>(null);
  // Adjusting state while rendering (React's pattern for state derived from a changed input).
  if (incoming && shown?.key !== location.key) setShown({ text: incoming, path: location.pathname, key: location.key });
  if (!incoming && shown && shown.path !== location.pathname) setShown(null);

  useEffect(() => {
    if (!incoming) return;
    void navigate({ pathname: location.pathname, search: location.search, hash: location.hash }, { replace: true, state: null });
  }, [incoming, navigate, location.pathname, location.search, location.hash]);

  // The live region holds the words only (not the Dismiss button), and is always there.
  return (
    <div className={shown ? 'flash' : undefined}>
      <p role="status" aria-live="polite" data-testid="flash">
        {shown?.text}
      </p>
      {shown ? (
        <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => setShown(null)}>
          ×
        </button>
      ) : null}
    </div>
  );
}
