import type { SubmissionFormat } from './types';

/** Guesses how a pasted table is written; the learner can override the guess. */
export function detectFormat(content: string): SubmissionFormat {
  const text = content.trim();
  if (!text) return 'csv';
  if (text.startsWith('[') || text.startsWith('{')) return 'json';
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  if (lines.length > 0 && lines.slice(0, 2).every((line) => line.trim().startsWith('|'))) return 'markdown';
  if (lines.some((line) => /^\s*\|?\s*:?-{3,}/.test(line)) && text.includes('|')) return 'markdown';
  const tabs = lines.filter((line) => line.includes('\t')).length;
  if (tabs >= Math.ceil(lines.length / 2)) return 'tsv';
  return 'csv';
}

export const FORMAT_LABELS: Record<SubmissionFormat, string> = {
  csv: 'CSV',
  tsv: 'TSV (from a spreadsheet)',
  markdown: 'Markdown table',
  json: 'JSON',
};
