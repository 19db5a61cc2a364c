import { startTransition, useEffect, useState } from 'react';

/**
 * Runs `task` when the browser is next idle (at the latest after `timeout` ms; a short timer
 * where there is no requestIdleCallback, as in jsdom). Returns what cancels it.
 */
export function whenIdle(task: () => void, timeout = 2000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(task, { timeout });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = window.setTimeout(task, 50);
  return () => window.clearTimeout(timer);
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
    // A transition: React renders what the idle moment brings in slices, yielding to the
    // browser between them, instead of in one task.
    return whenIdle(() => startTransition(() => setIdle(true)), timeout);
  }, [idle, timeout]);
  return idle;
}
