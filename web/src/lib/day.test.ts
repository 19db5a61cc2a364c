import { describe, expect, it } from 'vitest';
import { dayOfActivity } from './day';
import sharedVectors from './day-vectors.json';

// The same vectors as the server's progress/tests/test_day_vectors.py: the day rule written here
// cannot drift from Python's.
describe('the learner’s day on the shared vectors', () => {
  for (const vector of sharedVectors.vectors) {
    it(vector.name, () => {
      const answer = dayOfActivity(
        new Date(vector.at),
        vector.zone,
        vector.last,
        vector.last_start === null ? null : new Date(vector.last_start),
      );
      expect({ day: answer.day, start: answer.start?.toISOString().replace('.000Z', 'Z') ?? null }).toEqual({
        day: vector.day,
        start: vector.start,
      });
    });
  }
});
