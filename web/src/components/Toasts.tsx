import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

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
/** Where open modal dialogs register, topmost last (see useToastLayer). */
const LayerContext = createContext<(layer: HTMLElement) => () => void>(() => () => undefined);
let nextId = 1;

/** At most this many on screen: the oldest gives way. */
const MAX_SHOWN = 5;

/**
 * Short messages (saved, lesson complete, achievements) in a polite live region. They stack, so
 * three achievements unlocked at once are all shown; a new one with the title of one on screen
 * replaces it, so saving four times shows one "Settings saved", not four.
 *
 * While a modal dialog is open the region moves into it: showModal() puts the dialog in the top
 * layer above everything else and makes the rest of the page inert, so toasts left outside would
 * sit under its backdrop, out of reach of the pointer and of screen readers.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [layers, setLayers] = useState<HTMLElement[]>([]);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((toast) => toast.id !== id)), []);
  const show = useCallback(
    (toast: Omit<Toast, 'id'>) => {
      const id = nextId++;
      setToasts((all) => [...all.filter((shown) => shown.title !== toast.title), { ...toast, id }].slice(-MAX_SHOWN));
      window.setTimeout(() => dismiss(id), toast.durationMs ?? 8000);
    },
    [dismiss],
  );
  const enterLayer = useCallback((layer: HTMLElement) => {
    setLayers((all) => [...all, layer]);
    return () => setLayers((all) => all.filter((each) => each !== layer));
  }, []);
  const api = useMemo(() => ({ show }), [show]);
  const region = (
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
  );
  const top = layers.at(-1);
  return (
    <ToastContext.Provider value={api}>
      <LayerContext.Provider value={enterLayer}>
        {children}
        {top ? createPortal(region, top) : region}
      </LayerContext.Provider>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  return useContext(ToastContext);
}

/** For a modal dialog: while it is open, toasts are drawn inside it (the top layer) instead. */
export function useToastLayer(): (layer: HTMLElement) => () => void {
  return useContext(LayerContext);
}
