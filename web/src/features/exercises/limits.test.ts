import { describe, expect, it } from 'vitest';
import { kib, limitProblem, limitsText, measureTable, sizeText } from './limits';

// The exercise's `limits`, as the server answers them (exercises/parsing.py).
const limits = { max_bytes: 65536, max_rows: 200 };

const csv = (rows: number) => `model,d_model\n${'GPT-2,768\n'.repeat(rows)}`;

describe('table limits', () => {
  it('accepts 200 rows under the header and refuses 201', () => {
    expect(limitProblem(measureTable(csv(200), 'csv'), limits)).toBeNull();
    expect(limitProblem(measureTable(csv(201), 'csv'), limits)).toBe('The table has 201 rows under the header; at most 200 are accepted.');
  });

  it('counts rows as the server does: blank lines, a Markdown separator and grid borders are not rows', () => {
    expect(measureTable('\nmodel,d\n\nGPT-2,768\n\n', 'csv').rows).toBe(1);
    expect(measureTable('| model | d |\n|---|:--:|\n| GPT-2 | 768 |\n| Llama | 4096 |', 'markdown').rows).toBe(2);
    expect(measureTable('+---+---+\n| model | d |\n+===+===+\n| GPT-2 | 768 |\n+---+---+', 'markdown').rows).toBe(1);
  });

  it('counts JSON rows in each accepted shape, and leaves invalid JSON to the server', () => {
    expect(measureTable('[{"model":"a"},{"model":"b"}]', 'json').rows).toBe(2);
    expect(measureTable('[["model","d"],["a",1]]', 'json').rows).toBe(1);
    expect(measureTable('{"columns":["model"],"rows":[["a"],["b"],["c"]]}', 'json').rows).toBe(3);
    expect(measureTable('[{"model":', 'json').rows).toBeNull();
  });

  it('refuses more than 64 KiB, counting UTF-8 bytes', () => {
    const big = `model,d\n${'é'.repeat(33 * 1024)}`;

    expect(limitProblem(measureTable(big, 'csv'), limits)).toMatch(/^The table is 67 KiB; the limit is 64 KiB\./);
    expect(sizeText(measureTable('model,d\nGPT-2,768', 'csv'))).toBe('1 row · 0.1 KiB');
  });

  it('says a size as the server does, rounded up (exercises/tests/test_api.py: the same 70,300 bytes)', () => {
    const table = `model,d_model\n${'x'.repeat(70_300 - 14)}`;

    expect(limitProblem(measureTable(table, 'csv'), limits)).toMatch(/^The table is 69 KiB; the limit is 64 KiB\./);
    expect([65_536, 65_537, 1, 1024, 10_239].map(kib)).toEqual(['64', '65', '0.1', '1.0', '10.0']);
  });

  it('takes its limits from the server, not from a copy of them', () => {
    const smaller = { max_bytes: 32 * 1024, max_rows: 50 };

    expect(limitsText(smaller)).toBe('At most 50 rows and 32 KiB.');
    expect(limitProblem(measureTable(csv(51), 'csv'), smaller)).toBe('The table has 51 rows under the header; at most 50 are accepted.');
  });
});
