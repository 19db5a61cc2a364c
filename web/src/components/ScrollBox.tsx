import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

/**
 * A box that scrolls sideways inside the page (a wide table on a phone) and says so while more
 * is hidden to the right: a fade edge with "Scroll for more", which is also the box's
 * description, so a screen reader announces it when the box takes the focus. The hint sits over
 * the box's edge rather than under it, so showing it moves nothing.
 */
export function ScrollBox({ id, label, children }: { id?: string; label: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const [more, setMore] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const update = () => setMore(element.scrollLeft + element.clientWidth < element.scrollWidth - 1);
    update();
    element.addEventListener('scroll', update, { passive: true });
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    resized?.observe(element);
    return () => {
      element.removeEventListener('scroll', update);
      resized?.disconnect();
    };
  }, []);
  return (
    <div className="scroll-box">
      <div ref={box} className="table-wrap" id={id} tabIndex={0} role="region" aria-label={label} aria-describedby={more ? hintId : undefined}>
        {children}
      </div>
      {more ? (
        <p className="scroll-hint" id={hintId}>
          Scroll for more <span aria-hidden="true">→</span>
        </p>
      ) : null}
    </div>
  );
}
