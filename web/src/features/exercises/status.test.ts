import { describe, expect, it } from 'vitest';
import { statusLine } from './status';

const graded = (score: number, passed: boolean) => ({ status: 'graded' as const, score, passed });

describe('statusLine', () => {
  it('says nothing was tried yet, with the pass mark', () => {
    expect(statusLine({ passed: false, attempts: [], passMark: 0.8 })).toEqual({ tone: 'none', text: 'Not attempted yet · pass mark 80%' });
  });

  it('tells a pass from a latest attempt that fell short, in one line', () => {
    const status = statusLine({ passed: true, attempts: [graded(0.6, false), graded(1, true)], passMark: 0.8 });

    expect(status).toEqual({ tone: 'passed', text: 'Passed earlier (best 100%) · latest attempt 60%, below the pass mark (80%)' });
  });

  it('says passed when the latest attempt passed', () => {
    expect(statusLine({ passed: true, attempts: [graded(0.9, true)], passMark: 0.8 }).text).toBe('Passed · latest attempt 90%');
  });

  it('gives the latest score against the pass mark, and the best when it was higher', () => {
    const status = statusLine({ passed: false, attempts: [graded(0.5, false), graded(0.7, false)], passMark: 0.8 });

    expect(status).toEqual({ tone: 'failed', text: 'Not passed yet · latest attempt 50% (pass mark 80%) · best 70%' });
  });

  it('says when the latest attempt is being graded or could not be read', () => {
    expect(statusLine({ passed: false, attempts: [{ status: 'queued', score: null, passed: false }], passMark: 0.8 })).toEqual({
      tone: 'pending',
      text: 'Not passed yet · latest attempt being graded…',
    });
    expect(statusLine({ passed: true, attempts: [{ status: 'invalid', score: null, passed: false }], passMark: 0.8 }).text).toBe(
      'Passed earlier · latest attempt could not be read',
    );
  });
});
