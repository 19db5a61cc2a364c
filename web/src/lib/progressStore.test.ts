import { describe, expect, it } from 'vitest';
import { completedLessons, deviceId, readAnswers, readChecks, readEvents, recordAnswer, recordCompletion, recordReveal, removeAnswers, removeEvents, snapshot } from './progressStore';

describe('local progress store', () => {
  it('records a completion as a sync event with a uuid id and an ISO time', () => {
    const event = recordCompletion('embedding-dimension', new Date('2026-11-29T21:04:00Z'));
    expect(event).toMatchObject({ type: 'lesson_completed', lesson: 'embedding-dimension', occurred_at: '2026-11-29T21:04:00.000Z' });
    expect(event?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(readEvents()).toEqual([event]);
  });

  it('records a lesson only once', () => {
    expect(recordCompletion('a')).not.toBeNull();
    expect(recordCompletion('a')).toBeNull();
    expect(readEvents()).toHaveLength(1);
  });

  it('lists completed lessons earliest first', () => {
    recordCompletion('later', new Date('2026-11-29T12:00:00Z'));
    recordCompletion('earlier', new Date('2026-11-28T12:00:00Z'));
    expect(completedLessons()).toEqual(['earlier', 'later']);
  });

  it('removes only the events it is given, keeping ones recorded meanwhile', () => {
    const first = recordCompletion('a');
    const second = recordCompletion('b');
    removeEvents([first!.id]);
    expect(readEvents()).toEqual([second]);
  });

  it('ignores corrupt storage and malformed entries', () => {
    localStorage.setItem('lp.progress.events', '{not json');
    expect(readEvents()).toEqual([]);
    localStorage.setItem('lp.progress.events', JSON.stringify([{ id: 1 }, { id: 'x', type: 'lesson_completed', lesson: 'a', occurred_at: '2026-01-01T00:00:00Z' }]));
    expect(readEvents().map((event) => event.lesson)).toEqual(['a']);
  });

  it('keeps one device id per browser', () => {
    const id = deviceId();
    expect(id).toMatch(/^web-/);
    expect(deviceId()).toBe(id);
  });

  it('answers the same snapshot until storage changes', () => {
    const before = snapshot();
    expect(snapshot()).toBe(before);
    recordCompletion('a');
    expect(snapshot()).not.toBe(before);
    expect(snapshot()).toHaveLength(1);
  });
});

describe('answers to checks kept on the device', () => {
  it('keeps an answer with a uuid id, an ISO time, its lesson and whether it was right', () => {
    const kept = recordAnswer({ check: 61, lesson: 'embedding-dimension', answer: { value: '64' }, correct: true }, new Date('2026-11-29T21:04:00Z'));
    expect(kept).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      check: 61,
      lesson: 'embedding-dimension',
      answer: { value: '64' },
      answered_at: '2026-11-29T21:04:00.000Z',
      revealed: false,
      correct: true,
    });
    expect(readAnswers()).toEqual([kept]);
  });

  it('marks the answers given after the check was revealed', () => {
    recordAnswer({ check: 62, lesson: 'a', answer: { options: ['x'] }, correct: false });
    recordReveal(62);
    const after = recordAnswer({ check: 62, lesson: 'a', answer: { options: ['y'] }, correct: true });
    expect(readAnswers().map((answer) => answer.revealed)).toEqual([false, true]);
    expect(after.revealed).toBe(true);
    expect(readChecks().revealed).toEqual([62]);
  });

  it('removes the answers it is given, and the reveals with the last one', () => {
    recordReveal(62);
    const first = recordAnswer({ check: 62, lesson: 'a', answer: { options: ['y'] }, correct: true });
    const second = recordAnswer({ check: 63, lesson: 'a', answer: { items: ['b', 'a'] }, correct: false });
    removeAnswers([first.id]);
    expect(readChecks()).toEqual({ answers: [second], revealed: [62] });
    removeAnswers([second.id]);
    expect(readChecks()).toEqual({ answers: [], revealed: [] });
  });

  it('ignores corrupt storage and malformed answers', () => {
    localStorage.setItem('lp.progress.checks', '{not json');
    expect(readChecks()).toEqual({ answers: [], revealed: [] });
    localStorage.setItem('lp.progress.checks', JSON.stringify({ answers: [{ id: 'x', check: '61' }], revealed: ['62', 63] }));
    expect(readChecks()).toEqual({ answers: [], revealed: [63] });
  });
});
