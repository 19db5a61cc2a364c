import { useState } from 'react';
import { Icon, type IconName } from '@/components/Icon';
import { setThemeChoice, THEME_CHOICES, useThemeChoice, type ThemeChoice } from '@/lib/theme';

const LABELS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };
const ICONS: Record<ThemeChoice, IconName> = { system: 'system', light: 'sun', dark: 'moon' };

/**
 * One button in the top bar, compact at 375 px: each press moves to the next of System, Light
 * and Dark. Its name says the current choice and the next; a status line announces the change.
 */
export function ThemeToggle() {
  const choice = useThemeChoice();
  const [announced, setAnnounced] = useState('');
  const next = THEME_CHOICES[(THEME_CHOICES.indexOf(choice) + 1) % THEME_CHOICES.length];
  return (
    <>
      <button
        type="button"
        className="icon-button theme-toggle"
        aria-label={`Theme: ${LABELS[choice]}. Switch to ${LABELS[next]}`}
        title={`Theme: ${LABELS[choice]} (switch to ${LABELS[next]})`}
        data-choice={choice}
        onClick={() => {
          setThemeChoice(next);
          setAnnounced(`Theme: ${LABELS[next]}`);
        }}
      >
        <Icon name={ICONS[choice]} size={18} />
      </button>
      <span className="visually-hidden" role="status">
        {announced}
      </span>
    </>
  );
}
