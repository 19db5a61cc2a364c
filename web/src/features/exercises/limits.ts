// What the server refuses, checked before sending (exercises/parsing.py: MAX_BYTES, MAX_ROWS),
// so the learner reads one message in one place instead of a 413 or a 400 after the upload.
import type { SubmissionFormat } from '@/lib/types';

export const MAX_BYTES = 64 * 1024;
export const MAX_ROWS = 200;
export const LIMITS_TEXT = `At most ${MAX_ROWS} rows and ${MAX_BYTES / 1024} KiB.`;

export interface TableSize {
  bytes: number;
  /** Rows under the header, counted as the server would; null when it cannot tell (JSON not yet valid). */
  rows: number | null;
}

const encoder = new TextEncoder();

/** The pasted table's size in UTF-8 bytes and its rows under the header. */
export function measureTable(content: string, format: SubmissionFormat): TableSize {
  return { bytes: encoder.encode(content).length, rows: countRows(content, format) };
}

/** The sentence to show when the table is over a limit, else null. */
export function limitProblem(size: TableSize): string | null {
  if (size.bytes > MAX_BYTES) {
    return `The table is ${kib(size.bytes)} KiB; the limit is ${MAX_BYTES / 1024} KiB. Remove rows or columns you do not need.`;
  }
  if (size.rows !== null && size.rows > MAX_ROWS) {
    return `The table has ${size.rows} rows under the header; at most ${MAX_ROWS} are accepted.`;
  }
  return null;
}

/** "3 rows · 0.2 KiB" beside the limits. */
export function sizeText(size: TableSize): string {
  const rows = size.rows === null ? '' : `${size.rows} row${size.rows === 1 ? '' : 's'} · `;
  return `${rows}${kib(size.bytes)} KiB`;
}

function kib(bytes: number): string {
  return bytes >= 10 * 1024 ? (bytes / 1024).toFixed(0) : (bytes / 1024).toFixed(1);
}

const SEPARATOR = /^\s*\|?[\s:|=-]*-[\s:|=-]*$/;
const GRID_BORDER = /^\s*\+[-=+: ]*\+\s*$/;

function countRows(content: string, format: SubmissionFormat): number | null {
  if (format === 'json') {
    try {
      const data: unknown = JSON.parse(content);
      if (Array.isArray(data)) return data.every(Array.isArray) ? Math.max(data.length - 1, 0) : data.length;
      if (data && typeof data === 'object') {
        const table = data as Record<string, unknown>;
        const rows = table.rows ?? table.data;
        return Array.isArray(rows) ? rows.length : Object.keys(table).length;
      }
    } catch {
      return null;
    }
    return null;
  }
  const lines = content.split(/\r\n|\r|\n/).filter((line) => line.trim() !== '');
  if (format === 'markdown') {
    const table = lines.filter((line) => line.includes('|') && !GRID_BORDER.test(line) && !SEPARATOR.test(line));
    return Math.max(table.length - 1, 0);
  }
  return Math.max(lines.length - 1, 0);
}
