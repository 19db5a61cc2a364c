/** Characters as the server counts them (code points: an emoji is one, not two). */
export function charCount(text: string): number {
  return Array.from(text).length;
}

/**
 * "1,234/5,000" beside a text box, turning into what to do once over the limit. Its id goes in
 * the box's aria-describedby; it is polite only near the limit, not on every keystroke.
 */
export function CharCount({ text, max, id }: { text: string; max: number; id: string }) {
  const count = charCount(text);
  const over = count - max;
  const near = count >= max * 0.9;
  return (
    <p className={over > 0 ? 'counter field-error' : 'counter muted'} id={id} aria-live={near ? 'polite' : 'off'}>
      {over > 0
        ? `${count.toLocaleString('en')} of at most ${max.toLocaleString('en')} characters: remove ${over.toLocaleString('en')}.`
        : `${count.toLocaleString('en')}/${max.toLocaleString('en')} characters`}
    </p>
  );
}
