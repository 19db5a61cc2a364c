// What the server refuses, checked before sending, so the learner reads one message in one
// place instead of a 413 or a 400 after the upload. The limits are the server's own, read from
// the exercise (`limits`: exercises/parsing.py's MAX_BYTES and MAX_ROWS), and sizes are said in
// KiB by the server's rule (parsing.kib), so the app and a refusal never name two sizes.
import type { ExerciseDetail, SubmissionFormat } from '@/lib/types';

export type Limits = ExerciseDetail['limits'];

/** "At most 200 rows and 64 KiB." */
export function limitsText(limits: Limits): string {
  return `At most ${limits.max_rows} rows and ${kib(limits.max_bytes)} KiB.`;
}

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
export function limitProblem(size: TableSize, limits: Limits): string | null {
  if (size.bytes > limits.max_bytes) {
    return `The table is ${kib(size.bytes)} KiB; the limit is ${kib(limits.max_bytes)} KiB. Remove rows or columns you do not need.`;
  }
  if (size.rows !== null && size.rows > limits.max_rows) {
    return `The table has ${size.rows} rows under the header; at most ${limits.max_rows} are accepted.`;
  }
  return null;
}

/** "3 rows · 0.2 KiB" beside the limits. */
export function sizeText(size: TableSize): string {
  const rows = size.rows === null ? '' : `${size.rows} row${size.rows === 1 ? '' : 's'} · `;
  return `${rows}${kib(size.bytes)} KiB`;
}

/** Bytes in KiB rounded up, as the server says them: whole KiB from 10 KiB, else tenths. */
export function kib(bytes: number): string {
  return bytes >= 10 * 1024 ? String(Math.ceil(bytes / 1024)) : (Math.ceil((bytes * 10) / 1024) / 10).toFixed(1);
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
