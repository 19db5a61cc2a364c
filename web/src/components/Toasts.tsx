import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

interface Toast {
  id: number;
  title: string;
  /** One line, or several (each its own paragraph). */
  body?: string | string[];
  tone: 'success' | 'info' | 'error' | 'celebrate';
  /** Shown for this long (default 8 s). */
  durationMs?: number;
}
interface ToastApi {
  show: (toast: Omit<Toast, 'id'>) => void;
}

const ToastContext = createContext<ToastApi>({ show: () => undefined });
let nextId = 1;

/** At most this many on screen: the oldest gives way. */
const MAX_SHOWN = 5;

/**
 * Short messages (saved, lesson complete, achievements) in a polite live region. They stack, so
 * three achievements unlocked at once are all shown; a new one with the title of one on screen
 * replaces it, so saving four times shows one "Settings saved", not four.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((toast) => toast.id !== id)), []);
  const show = useCallback(
    (toast: Omit<Toast, 'id'>) => {
      const id = nextId++;
      setToasts((all) => [...all.filter((shown) => shown.title !== toast.title), { ...toast, id }].slice(-MAX_SHOWN));
      window.setTimeout(() => dismiss(id), toast.durationMs ?? 8000);
    },
    [dismiss],
  );
  const api = useMemo(() => ({ show }), [show]);
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast-${toast.tone}`}>
            <div>
              <strong>{toast.title}</strong>
              {[toast.body ?? []].flat().map((line) => (
                <p key={line}>{line}</p>
              ))}
            </div>
            <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  return useContext(ToastContext);
}
