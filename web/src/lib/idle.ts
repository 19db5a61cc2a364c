import { useEffect, useState } from 'react';

type IdleWindow = Window & {
  requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number;
  cancelIdleCallback?: (handle: number) => void;
};

/** Runs `task` when the browser is next idle (at the latest after `timeout` ms). */
export function whenIdle(task: () => void, timeout = 2000): void {
  const w = window as IdleWindow;
  if (w.requestIdleCallback) w.requestIdleCallback(task, { timeout });
  else window.setTimeout(task, 50);
}

/**
 * False on the first render, true once the browser has had a moment to itself after it: for
 * the parts of a page below its first screen (an exercise, the comments), so their reads, code
 * and rendering come after the page is on screen and usable, in tasks of their own, not in the
 * one that starts the app. `timeout` bounds the wait on a page that is never idle.
 */
export function useAfterIdle(timeout = 2000): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (idle) return;
    const w = window as IdleWindow;
    if (w.requestIdleCallback && w.cancelIdleCallback) {
      const handle = w.requestIdleCallback(() => setIdle(true), { timeout });
      return () => w.cancelIdleCallback?.(handle);
    }
    const timer = window.setTimeout(() => setIdle(true), 50);
    return () => window.clearTimeout(timer);
  }, [idle, timeout]);
  return idle;
}
