import { describe, expect, it } from 'vitest';
import { canonicalZone, dayIn, formatDateTime, searchZones, zoneLabel, zoneList } from './timeZones';

describe('zoneList', () => {
  it('gives current IANA names where the browser answers legacy ones, without duplicates', () => {
    const zones = zoneList([], ['Africa/Asmera', 'Asia/Calcutta', 'Asia/Kolkata', 'Europe/Kiev', 'Europe/Paris', 'UTC']);

    expect(zones).toEqual(['UTC', 'Africa/Asmara', 'Asia/Kolkata', 'Europe/Kyiv', 'Europe/Paris']);
  });

  it('has no legacy alias among the zones this runtime knows', () => {
    const zones = zoneList();

    expect(zones.length).toBeGreaterThan(300);
    for (const legacy of ['Africa/Asmera', 'Asia/Calcutta', 'Asia/Saigon', 'Asia/Katmandu', 'Europe/Kiev', 'America/Buenos_Aires']) {
      expect(zones).not.toContain(legacy);
    }
    expect(zones).toContain('Asia/Kolkata');
    expect(new Set(zones).size).toBe(zones.length);
  });

  it('keeps the learner’s own zone even when the browser does not list it', () => {
    expect(zoneList(['America/Nuuk'], ['Europe/Paris'])).toEqual(['UTC', 'America/Nuuk', 'Europe/Paris']);
  });
});

describe('searchZones', () => {
  const zones = ['UTC', 'America/Argentina/Buenos_Aires', 'America/New_York', 'Europe/Kyiv', 'Europe/Paris'];

  it('finds a zone by its city, spaces for underscores, in any case', () => {
    expect(searchZones(zones, 'buenos aires')).toEqual(['America/Argentina/Buenos_Aires']);
    expect(searchZones(zones, 'new york')).toEqual(['America/New_York']);
  });

  it('needs every word to match and gives all zones for an empty query', () => {
    expect(searchZones(zones, 'europe ky')).toEqual(['Europe/Kyiv']);
    expect(searchZones(zones, '  ')).toEqual(zones);
  });
});

describe('zoneLabel and canonicalZone', () => {
  it('reads as a place', () => {
    expect(zoneLabel('America/Argentina/Buenos_Aires')).toBe('Buenos Aires (America / Argentina)');
    expect(zoneLabel('UTC')).toBe('UTC');
  });

  it('maps renamed zones and leaves others alone', () => {
    expect(canonicalZone('Asia/Saigon')).toBe('Asia/Ho_Chi_Minh');
    expect(canonicalZone('Europe/Berlin')).toBe('Europe/Berlin');
  });
});

describe('formatDateTime', () => {
  it('writes an instant in the learner’s zone', () => {
    const instant = '2026-11-30T23:30:00Z';

    expect(formatDateTime(instant, 'UTC')).toMatch(/Nov 30, 2026.*11:30/);
    expect(formatDateTime(instant, 'Asia/Tokyo')).toMatch(/Dec 1, 2026.*8:30/);
  });
});

describe('dayIn', () => {
  it('names the browser’s day without a zone, as Intl does for the browser’s zone', () => {
    for (const now of [new Date('2026-12-31T23:30:00Z'), new Date('2027-01-01T00:30:00Z'), new Date('2026-03-08T10:00:00Z')]) {
      const intl = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
      expect(dayIn(undefined, now)).toBe(intl);
    }
  });
});
