import { describe, expect, it } from 'vitest';
import { failingAudits, figures, median, medians, misses, table } from './lighthouse-report.mjs';

const lhr = ({ performance = 0.95, seo = 1, lcp = 2000, cls = 0.01, tbt = 100, fcp = 1200, audits = {} } = {}) => ({
  categories: {
    performance: { score: performance, auditRefs: [{ id: 'total-blocking-time' }] },
    accessibility: { score: 1, auditRefs: [] },
    seo: { score: seo, auditRefs: [{ id: 'robots-txt' }, { id: 'hreflang' }] },
    'best-practices': { score: 1, auditRefs: [] },
  },
  audits: {
    'largest-contentful-paint': { numericValue: lcp },
    'cumulative-layout-shift': { numericValue: cls },
    'total-blocking-time': { id: 'total-blocking-time', title: 'Total Blocking Time', score: 0.95, scoreDisplayMode: 'numeric', numericValue: tbt },
    'first-contentful-paint': { numericValue: fcp },
    ...audits,
  },
});

describe('the Lighthouse harness', () => {
  it('takes the middle of an odd count and the mean of the middle two of an even one', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(Number.isNaN(median([]))).toBe(true);
  });

  it('takes each figure’s median on its own, not one run’s figures', () => {
    const runs = [lhr({ lcp: 3000, tbt: 100 }), lhr({ lcp: 2000, tbt: 900 }), lhr({ lcp: 2500, tbt: 300 })].map(figures);
    expect(medians(runs)).toMatchObject({ lcp: 2.5, tbt: 300, performance: 0.95 });
  });

  it('fails a page whose median misses a threshold and passes one on the bounds', () => {
    expect(misses(medians([figures(lhr({ performance: 0.9, lcp: 2500, cls: 0.05, tbt: 200 }))]))).toEqual([]);
    expect(misses(medians([figures(lhr({ seo: 0.91, tbt: 201 }))]))).toEqual(['seo', 'tbt']);
  });

  it('counts a figure a run did not report as a miss', () => {
    expect(misses(medians([figures({ categories: {}, audits: {} })]))).toContain('performance');
  });

  it('prints a row per page with its verdict', () => {
    const text = table([{ path: '/lessons/x', runs: [figures(lhr({ tbt: 1500 }))] }]);
    expect(text).toMatch(/^\/lessons\/x .* 1500 .* FAIL \(tbt\)$/m);
  });

  it('names the failing audits of a category below 1, not those that pass or do not apply', () => {
    const audits = {
      'robots-txt': { id: 'robots-txt', title: 'robots.txt is not valid', score: 0, scoreDisplayMode: 'binary', displayValue: '28 errors found' },
      hreflang: { id: 'hreflang', title: 'hreflang', score: null, scoreDisplayMode: 'notApplicable' },
    };
    expect(failingAudits(lhr({ seo: 0.91, audits }))).toEqual([
      { category: 'seo', id: 'robots-txt', title: 'robots.txt is not valid', display: '28 errors found' },
    ]);
  });
});
