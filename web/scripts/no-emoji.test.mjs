// Issue 40: icons and badges are drawn by the app (src/components/Icon.tsx), never emoji, which a
// machine without a colour-emoji font shows as empty boxes. Fails when an emoji code point is in
// the web app's source or in a server template (pages, e-mails). Lesson text lives in content/,
// which is not looked at: what an author writes there is prose, not the app's icons.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const web = join(import.meta.dirname, '..');
const repo = join(web, '..');
// Extended_Pictographic is every emoji and the symbols a font may draw as one (U+2600 sun,
// U+2744 snowflake); U+FE0F asks for an emoji's colour glyph. Text marks such as a check mark
// (U+2713), an arrow or a circle are not among them.
const EMOJI = /[\p{Extended_Pictographic}\u{FE0F}]/u;
/** Files allowed to hold an emoji (path -> the reason): none yet. */
const ALLOWED = new Map();

function files(dir, keep) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', '.venv', '.git', 'dist'].includes(entry.name) ? [] : files(path, keep);
    return keep(path) ? [path] : [];
  });
}

/** "path:line: text" for each line of `paths` with an emoji. */
function emojiLines(paths) {
  return paths
    .filter((path) => !ALLOWED.has(path))
    .flatMap((path) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .flatMap((line, index) => (EMOJI.test(line) ? [`${relative(repo, path)}:${index + 1}: ${line.trim()}`] : [])),
    );
}

const templates = () =>
  readdirSync(repo, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !['web', 'node_modules', 'content'].includes(entry.name))
    .flatMap((entry) => {
      try {
        return files(join(repo, entry.name, 'templates'), (path) => /\.(html|txt)$/.test(path));
      } catch {
        return [];
      }
    });

describe('no emoji as icons', () => {
  it('the pattern catches emoji and lets text marks through', () => {
    expect(['\u{1F389}', '\u{1F525}', '\u2600', '\u2744\uFE0F', '\u{1F3C6}'].every((text) => EMOJI.test(text))).toBe(true);
    expect(['\u2713', '\u2717', '\u2192', '\u25D0', '\u25CB'].some((text) => EMOJI.test(text))).toBe(false);
  });

  it('the web app draws its icons', () => {
    const found = files(join(web, 'src'), (path) => /\.(tsx?|css|html)$/.test(path));
    expect(found.length).toBeGreaterThan(50);
    expect(emojiLines([...found, join(web, 'index.html')])).toEqual([]);
  });

  it('server templates (pages, e-mails) hold no emoji', () => {
    const found = templates();
    expect(found.length).toBeGreaterThan(10);
    expect(emojiLines(found)).toEqual([]);
  });
});
