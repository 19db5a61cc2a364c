import { describe, expect, it } from 'vitest';
import { completedLessons, deviceId, readEvents, recordCompletion, removeEvents, snapshot } from './progressStore';

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
