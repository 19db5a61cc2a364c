import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { THEME_KEY } from '@/lib/theme';
import { ThemeToggle } from './ThemeToggle';

afterEach(() => vi.unstubAllGlobals());

it('cycles System, Light and Dark, saying the current choice and announcing the change', async () => {
  vi.stubGlobal('matchMedia', () => ({ matches: false, addEventListener: () => undefined, removeEventListener: () => undefined }));
  render(<ThemeToggle />);
  const button = screen.getByRole('button', { name: 'Theme: System. Switch to Light' });
  await userEvent.click(button);
  expect(button).toHaveAccessibleName('Theme: Light. Switch to Dark');
  expect(screen.getByRole('status')).toHaveTextContent('Theme: Light');
  expect(document.documentElement.dataset.theme).toBe('light');
  await userEvent.click(button);
  expect(button).toHaveAccessibleName('Theme: Dark. Switch to System');
  expect(localStorage.getItem(THEME_KEY)).toBe('dark');
  expect(document.documentElement.dataset.theme).toBe('dark');
  await userEvent.click(button);
  expect(button).toHaveAccessibleName('Theme: System. Switch to Light');
  expect(localStorage.getItem(THEME_KEY)).toBeNull();
  expect(document.documentElement.dataset.theme).toBe('light');
});
