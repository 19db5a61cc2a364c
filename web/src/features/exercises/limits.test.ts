import { describe, expect, it } from 'vitest';
import { limitProblem, measureTable, sizeText } from './limits';

const csv = (rows: number) => `model,d_model\n${'GPT-2,768\n'.repeat(rows)}`;

describe('table limits', () => {
  it('accepts 200 rows under the header and refuses 201', () => {
    expect(limitProblem(measureTable(csv(200), 'csv'))).toBeNull();
    expect(limitProblem(measureTable(csv(201), 'csv'))).toBe('The table has 201 rows under the header; at most 200 are accepted.');
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

    expect(limitProblem(measureTable(big, 'csv'))).toMatch(/^The table is 66 KiB; the limit is 64 KiB\./);
    expect(sizeText(measureTable('model,d\nGPT-2,768', 'csv'))).toBe('1 row · 0.0 KiB');
  });
});
