// The Lighthouse harness's arithmetic: per-page medians of the runs, the thresholds of issue 26,
// the table it prints and the audits that explain a category below 1. No I/O here, so
// lighthouse-report.test.mjs checks it without a browser.

/** What a first visit must meet: the median of the runs, per page. */
export const THRESHOLDS = [
  { key: 'performance', label: 'perf', min: 0.9 },
  { key: 'accessibility', label: 'a11y', min: 1 },
  { key: 'seo', label: 'seo', min: 1 },
  { key: 'best-practices', label: 'bp', min: 1 },
  { key: 'lcp', label: 'LCP s', max: 2.5 },
  { key: 'cls', label: 'CLS', max: 0.05 },
  { key: 'tbt', label: 'TBT ms', max: 200 },
  { key: 'fcp', label: 'FCP s' },
];

const CATEGORIES = ['performance', 'accessibility', 'seo', 'best-practices'];

/** One run's figures from a Lighthouse result (lhr): scores 0..1, LCP/FCP in s, TBT in ms. */
export function figures(lhr) {
  const value = (id) => lhr.audits[id]?.numericValue ?? NaN;
  const out = Object.fromEntries(CATEGORIES.map((key) => [key, lhr.categories[key]?.score ?? NaN]));
  out.lcp = value('largest-contentful-paint') / 1000;
  out.cls = value('cumulative-layout-shift');
  out.tbt = value('total-blocking-time');
  out.fcp = value('first-contentful-paint') / 1000;
  return out;
}

export function median(values) {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Each figure's median over the runs (figure by figure, not one "median run"). */
export function medians(runs) {
  return Object.fromEntries(THRESHOLDS.map(({ key }) => [key, median(runs.map((run) => run[key]))]));
}

/** The thresholds a page's medians miss (a missing figure misses too). */
export function misses(values) {
  return THRESHOLDS.filter(({ key, min, max }) => {
    const v = values[key];
    if (min === undefined && max === undefined) return false;
    return Number.isNaN(v) || (min !== undefined && v < min) || (max !== undefined && v > max);
  }).map(({ key }) => key);
}

function format(key, v) {
  if (Number.isNaN(v)) return 'n/a';
  if (key === 'tbt') return String(Math.round(v));
  if (key === 'cls') return v.toFixed(3);
  if (key === 'lcp' || key === 'fcp') return v.toFixed(2);
  return v.toFixed(2);
}

function bound({ key, min, max }) {
  if (min !== undefined) return `>=${format(key, min)}`;
  if (max !== undefined) return `<=${key === 'cls' ? max.toFixed(2) : max}`;
  return '';
}

/** The table: one row per page (its medians and verdict), the thresholds first. */
export function table(pages) {
  const width = Math.max(10, ...pages.map((page) => page.path.length));
  const cells = (first, values, last) =>
    [first.padEnd(width), ...values.map((v) => v.padStart(7)), ` ${last}`].join(' ');
  const lines = [
    cells('page', THRESHOLDS.map((t) => t.label), 'verdict'),
    cells('threshold', THRESHOLDS.map(bound), ''),
  ];
  for (const page of pages) {
    const values = medians(page.runs);
    const missed = misses(values);
    const verdict = missed.length ? `FAIL (${missed.join(', ')})` : 'PASS';
    lines.push(cells(page.path, THRESHOLDS.map(({ key }) => format(key, values[key])), verdict));
  }
  return lines.join('\n');
}

/** Every run's figures, so a median can be read against its spread. */
export function runLines(page) {
  return THRESHOLDS.map(({ key, label }) => `  ${label.padEnd(7)} ${page.runs.map((run) => format(key, run[key])).join('  ')}`);
}

/**
 * The audits behind a category below 1 in one run: id, title and the figure Lighthouse shows.
 * Performance lists only audits scored below 0.9 (its opportunities), the rest every audit
 * that does not pass.
 */
export function failingAudits(lhr) {
  const out = [];
  for (const key of CATEGORIES) {
    const category = lhr.categories[key];
    if (!category || category.score === 1) continue;
    const bar = key === 'performance' ? 0.9 : 1;
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= bar) continue;
      if (['notApplicable', 'manual', 'informative'].includes(audit.scoreDisplayMode)) continue;
      out.push({ category: key, id: audit.id, title: audit.title, display: audit.displayValue ?? '' });
    }
  }
  return out;
}
