// The colour theme: the learner's choice for this device (System, Light or Dark) and the theme
// it resolves to, written on <html data-theme="light|dark"> where styles.css reads it.
//
// index.html applies the stored choice with a small inline script before the first paint (no
// light flash for a dark-mode learner); this module takes over once the app runs: it follows
// the system's setting while the choice is System and a change made in another tab.
import { useSyncExternalStore } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

/** The localStorage key; index.html's inline script reads the same one. */
export const THEME_KEY = 'lp-theme';
export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];
const DARK_QUERY = '(prefers-color-scheme: dark)';

export function readThemeChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(THEME_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system'; // storage blocked (privacy settings): the system's setting
  }
}

function systemTheme(): Theme {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

export function resolveTheme(choice: ThemeChoice): Theme {
  return choice === 'system' ? systemTheme() : choice;
}

export function applyTheme(choice: ThemeChoice = readThemeChoice()): void {
  const root = document.documentElement;
  root.dataset.theme = resolveTheme(choice);
  root.dataset.themeChoice = choice;
}

const listeners = new Set<() => void>();
function notify() {
  applyTheme();
  for (const listener of listeners) listener();
}

export function setThemeChoice(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    // Not kept, but still applied for this page.
  }
  applyTheme(choice);
  for (const listener of listeners) listener();
}

let watching = false;
/** Re-applies the theme when the system's setting or another tab's choice changes (once per page). */
export function watchTheme(): void {
  if (watching) return;
  watching = true;
  applyTheme();
  if (typeof window.matchMedia === 'function') window.matchMedia(DARK_QUERY).addEventListener('change', notify);
  window.addEventListener('storage', (event) => {
    if (event.key === THEME_KEY || event.key === null) notify();
  });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The choice for this device, re-rendering when it changes here or in another tab. */
export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(subscribe, readThemeChoice, () => 'system');
}
