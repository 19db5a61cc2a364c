import { useEffect, useLayoutEffect, useMemo, useRef, useState, type PointerEvent } from 'react';
import type { KindInputProps } from '../kinds';

type Control = 'up' | 'down';

/** The order with `id` moved to index `to` (the others keep theirs), or null when that changes nothing. */
function reorder(order: string[], id: string, to: number): string[] | null {
  if (order.indexOf(id) === to || to < 0 || to >= order.length) return null;
  const next = order.filter((other) => other !== id);
  next.splice(to, 0, id);
  return next;
}

/**
 * Items to put in order: dragged by their handle (mouse, pen or touch: pointer events), or moved
 * with each item's Move up / Move down buttons, the focus staying on the moved item and a live
 * region saying where it went.
 */
export function OrderingInput({ check, draft, onChange, marks, promptId, idPrefix }: KindInputProps<string[]>) {
  const texts = useMemo(() => new Map((check.items ?? []).map((item) => [item.id, item.text])), [check.items]);
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState<string | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const focusNext = useRef<{ id: string; control: Control } | null>(null);
  // What a drag's window listeners read: the order now, not the one when the drag began.
  const latest = useRef({ draft, onChange });
  const stopDrag = useRef<(() => void) | null>(null);
  const total = draft.length;
  const helpId = `${idPrefix}-help`;

  useLayoutEffect(() => {
    latest.current = { draft, onChange };
  });
  useEffect(() => () => stopDrag.current?.(), []);

  // The moved item's button keeps the focus: the browser drops it when the row moves in the DOM.
  useLayoutEffect(() => {
    const wanted = focusNext.current;
    if (!wanted) return;
    focusNext.current = null;
    list.current?.querySelector<HTMLButtonElement>(`button[data-item="${wanted.id}"][data-move="${wanted.control}"]`)?.focus();
  }, [draft]);

  const announce = (id: string, position: number) => setAnnouncement(`${texts.get(id)} moved to position ${position} of ${total}.`);

  const move = (id: string, control: Control) => {
    const to = draft.indexOf(id) + (control === 'up' ? -1 : 1);
    const next = reorder(draft, id, to);
    if (!next) {
      setAnnouncement(`${texts.get(id)} is already ${control === 'up' ? 'first' : 'last'}.`);
      return;
    }
    focusNext.current = { id, control };
    onChange(next);
    announce(id, to + 1);
  };

  // The row moves in the DOM as it is dragged, which ends a pointer capture: the drag follows
  // the pointer on the window until it is let go.
  const startDrag = (event: PointerEvent<HTMLElement>, id: string) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    event.preventDefault();
    stopDrag.current?.();
    const pointer = event.pointerId;
    const from = draft.indexOf(id);
    const follow = (moved: globalThis.PointerEvent) => {
      if (moved.pointerId !== pointer || !list.current) return;
      // The item goes below every other row whose middle the pointer has passed.
      let to = 0;
      for (const row of Array.from(list.current.children) as HTMLElement[]) {
        if (row.dataset.item === id) continue;
        const box = row.getBoundingClientRect();
        if (moved.clientY > box.top + box.height / 2) to += 1;
      }
      const next = reorder(latest.current.draft, id, to);
      if (next) latest.current.onChange(next);
    };
    const stop = () => {
      window.removeEventListener('pointermove', follow);
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
      stopDrag.current = null;
      setDragging(null);
    };
    const end = (ended: globalThis.PointerEvent) => {
      if (ended.pointerId !== pointer) return;
      stop();
      const to = latest.current.draft.indexOf(id);
      if (to !== from) announce(id, to + 1);
    };
    window.addEventListener('pointermove', follow);
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
    stopDrag.current = stop;
    setDragging(id);
  };

  return (
    <div className="check-ordering">
      <p id={helpId} className="check-hint">
        Put them in order: drag an item by its handle, or use its Move up and Move down buttons.
      </p>
      <ol ref={list} className="ordering-list" aria-labelledby={promptId} aria-describedby={helpId}>
        {draft.map((id, index) => {
          const text = texts.get(id) ?? id;
          const mark = marks?.[id];
          const classes = ['ordering-item', dragging === id ? 'dragging' : '', mark ? (mark.correct ? 'marked-right' : 'marked-wrong') : ''];
          return (
            <li key={id} data-item={id} className={classes.filter(Boolean).join(' ')}>
              <span
                className="drag-handle"
                aria-hidden="true"
                title="Drag to move"
                onPointerDown={(event) => startDrag(event, id)}
              >
                ⠿
              </span>
              <span className="ordering-place" aria-hidden="true">
                {index + 1}
              </span>
              <span className="ordering-text">
                {text}
                {mark ? (
                  <span>
                    <span aria-hidden="true">{mark.correct ? ' ✓' : ' ✗'}</span>
                    <span className="visually-hidden">{mark.correct ? ' (in the right place)' : ' (not in the right place)'}</span>
                  </span>
                ) : null}
              </span>
              <span className="ordering-moves">
                {(['up', 'down'] as const).map((control) => {
                  const stuck = control === 'up' ? index === 0 : index === total - 1;
                  return (
                    <button
                      key={control}
                      type="button"
                      className="icon-button"
                      data-item={id}
                      data-move={control}
                      aria-label={`Move ${text} ${control}`}
                      aria-disabled={stuck || undefined}
                      onClick={() => move(id, control)}
                    >
                      <span aria-hidden="true">{control === 'up' ? '↑' : '↓'}</span>
                    </button>
                  );
                })}
              </span>
            </li>
          );
        })}
      </ol>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </div>
  );
}
