import { describe, expect, it } from 'vitest';
import { detectFormat } from './tableFormat';

describe('detectFormat', () => {
  it.each([
    ['model,d_model\ngpt2,768', 'csv'],
    ['model\td_model\ngpt2\t768', 'tsv'],
    ['| model | d_model |\n|---|---|\n| gpt2 | 768 |', 'markdown'],
    ['[{"model": "gpt2", "d_model": 768}]', 'json'],
  ])('recognises %j as %s', (content, format) => {
    expect(detectFormat(content)).toBe(format);
  });
});
