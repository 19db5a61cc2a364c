import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyTheme, readThemeChoice, setThemeChoice, THEME_KEY } from './theme';

function systemPrefersDark(dark: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: dark && query === '(prefers-color-scheme: dark)',
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

/** index.html's inline script, run as the browser runs it before the first paint. */
function runFirstPaintScript() {
  const html = readFileSync(join(import.meta.dirname, '..', '..', 'index.html'), 'utf8');
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1];
  expect(script, 'index.html has the inline theme script').toBeTruthy();
  new Function(script as string)();
  return document.documentElement.dataset.theme;
}

afterEach(() => {
  vi.unstubAllGlobals();
  delete document.documentElement.dataset.theme;
  delete document.documentElement.dataset.themeChoice;
});

describe('the theme before the first paint (index.html) and in the app (theme.ts) agree', () => {
  for (const [stored, systemDark, expected] of [
    [null, false, 'light'],
    [null, true, 'dark'],
    ['light', true, 'light'],
    ['dark', false, 'dark'],
    ['bogus', true, 'dark'],
  ] as const) {
    it(`stored ${stored ?? 'nothing'}, system ${systemDark ? 'dark' : 'light'}: ${expected}`, () => {
      systemPrefersDark(systemDark);
      if (stored) localStorage.setItem(THEME_KEY, stored);
      expect(runFirstPaintScript()).toBe(expected);
      delete document.documentElement.dataset.theme;
      applyTheme();
      expect(document.documentElement.dataset.theme).toBe(expected);
    });
  }
});

describe('setThemeChoice', () => {
  it('keeps Light or Dark on this device and forgets it for System', () => {
    systemPrefersDark(true);
    setThemeChoice('light');
    expect(localStorage.getItem(THEME_KEY)).toBe('light');
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(readThemeChoice()).toBe('light');
    setThemeChoice('system');
    expect(localStorage.getItem(THEME_KEY)).toBeNull();
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(document.documentElement.dataset.themeChoice).toBe('system');
  });
});
