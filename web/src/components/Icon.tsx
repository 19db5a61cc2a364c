// The app's icons, drawn as SVG on a 16-unit grid in the text's colour (currentColor), never
// emoji: a machine without a colour-emoji font shows an emoji as an empty box, and an emoji
// ignores the theme. src/test/noEmoji.test.ts fails when an emoji comes back into the app.
// pages/templates/pages/web/ draws the few the server's first answer shows with the same paths.

/** Each icon: `s` stroked paths (lines), `f` filled paths. */
const ICONS = {
  home: { s: 'M2 7.5 8 2l6 5.5M3.5 6.5V14h9V6.5' },
  review: { s: 'M13.5 8A5.5 5.5 0 1 1 11.9 4.1M13.5 2v3h-3' },
  leaderboard: { s: 'M1.5 14.5h13M2.5 14.5v-5h3.5v5M6 14.5v-9h4v9M10 14.5v-7h3.5v7' },
  bell: { s: 'M4 11.5V7a4 4 0 0 1 8 0v4.5l1.5 1.5h-11ZM6.5 14.5h3' },
  more: { s: 'M2 4h12M2 8h12M2 12h12' },
  trophy: { s: 'M4.5 2h7v4a3.5 3.5 0 0 1-7 0ZM2 3.5h2.5M11.5 3.5H14M8 9.5v3M5 14.5h6' },
  person: { s: 'M8 2a3 3 0 1 0 0 6 3 3 0 0 0 0-6ZM2.5 14.5a5.5 5.5 0 0 1 11 0' },
  gear: { s: 'M2 4h12M2 12h12M5.5 2v4M10.5 10v4' },
  progress: { s: 'M1.5 14.5h13M3 11l3.5-4 3 2.5 5-6' },
  flame: { f: 'M8 0c.5 2.6-1.2 4-2.5 5.6C4.3 7 3.5 8.4 3.5 10.2 3.5 13.4 5.6 16 8 16s4.5-2.4 4.5-5.6c0-2.2-1-3.6-2.1-4.8.1 1.5-.4 2.6-1.3 3.1C9.6 6 9.5 2.6 8 0Z' },
  snowflake: { s: 'M8 1v14M1.9 4.5l12.2 7M1.9 11.5l12.2-7' },
  celebrate: { s: 'M2 14.5 5.5 5l5.5 5.5ZM9.5 3.5l1-1.5M12.5 6.5l1.5-1' },
  sun: { s: 'M8 5a3 3 0 1 0 0 6 3 3 0 0 0 0-6ZM8 1v2M8 13v2M1 8h2M13 8h2' },
  moon: { s: 'M13.5 10A6 6 0 0 1 6 2.5a6 6 0 1 0 7.5 7.5Z' },
  system: { s: 'M8 1.5a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13Z', f: 'M8 1.5a6.5 6.5 0 0 1 0 13Z' },
} satisfies Record<string, { s?: string; f?: string }>;

export type IconName = keyof typeof ICONS;

/** A decorative icon (hidden from screen readers: the text beside it, or its control's name, says what it means). */
export function Icon({ name, size = 16, className }: { name: IconName; size?: number; className?: string }) {
  const icon: { s?: string; f?: string } = ICONS[name];
  return (
    <svg className={className ? `icon ${className}` : 'icon'} viewBox="0 0 16 16" width={size} height={size} aria-hidden="true" focusable="false">
      {icon.f ? <path fill="currentColor" d={icon.f} /> : null}
      {icon.s ? <path fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" d={icon.s} /> : null}
    </svg>
  );
}
