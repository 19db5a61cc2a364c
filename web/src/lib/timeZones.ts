// Time zones as people know them: IANA's current names, the browser's zone as the default,
// and every time the app shows written in the learner's zone.

// Chromium (ICU/CLDR) answers some zones by names IANA has since replaced; Firefox answers the
// current ones. Both sides of this map are accepted by the server (Python's zoneinfo).
const RENAMED: Record<string, string> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

/** The current IANA name of a zone ("Asia/Calcutta" → "Asia/Kolkata"). */
export function canonicalZone(zone: string): string {
  return RENAMED[zone] ?? zone;
}

/** The browser's zone under its current IANA name ("UTC" when the browser does not say). */
export function browserZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone ? canonicalZone(zone) : 'UTC';
}

/** Every zone the browser knows, under current names, sorted, with "UTC" first and `extra` kept. */
export function zoneList(extra: string[] = [], supported: readonly string[] = supportedZones()): string[] {
  const zones = new Set(supported.map(canonicalZone).filter((zone) => zone.includes('/')));
  for (const zone of extra) if (zone && zone !== 'UTC') zones.add(zone);
  return ['UTC', ...[...zones].sort()];
}

function supportedZones(): readonly string[] {
  return typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
}

/** A label that reads as a place: "America/Argentina/Buenos_Aires" → "Buenos Aires (America / Argentina)". */
export function zoneLabel(zone: string): string {
  if (!zone.includes('/')) return zone;
  const parts = zone.split('/');
  const city = parts.pop()!.replace(/_/g, ' ');
  return `${city} (${parts.join(' / ').replace(/_/g, ' ')})`;
}

/** The zones whose name or label contains every word of `query`, case-insensitively. */
export function searchZones(zones: string[], query: string): string[] {
  const words = query.toLowerCase().replace(/[_/]/g, ' ').split(/\s+/).filter(Boolean);
  if (words.length === 0) return zones;
  return zones.filter((zone) => {
    const text = `${zone} ${zoneLabel(zone)}`.toLowerCase().replace(/[_/]/g, ' ');
    return words.every((word) => text.includes(word));
  });
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string | undefined, dateOnly: boolean): Intl.DateTimeFormat {
  const key = `${zone ?? ''}|${dateOnly}`;
  let format = formatters.get(key);
  if (!format) {
    const style: Intl.DateTimeFormatOptions = dateOnly ? { dateStyle: 'medium' } : { dateStyle: 'medium', timeStyle: 'short' };
    try {
      format = new Intl.DateTimeFormat(undefined, { ...style, timeZone: zone });
    } catch {
      // A zone this browser does not know: the browser's own rather than no time at all.
      format = new Intl.DateTimeFormat(undefined, style);
    }
    formatters.set(key, format);
  }
  return format;
}

/** A date and time in `zone` (the learner's; the browser's when undefined). */
export function formatDateTime(value: string | number | Date, zone?: string): string {
  return formatter(zone, false).format(new Date(value));
}

/** A date in `zone`. */
export function formatDate(value: string | number | Date, zone?: string): string {
  return formatter(zone, true).format(new Date(value));
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The date (YYYY-MM-DD) of `now` in `timeZone` (the browser's when undefined or unknown). The
 * browser's zone is read from the Date itself: building an Intl.DateTimeFormat costs tens of
 * milliseconds on a phone, which the header paid on every render of a first visit.
 */
export function dayIn(timeZone: string | undefined, now: Date = new Date()): string {
  if (timeZone === undefined) return localDay(now);
  let format = dayFormatters.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    } catch {
      return localDay(now);
    }
    dayFormatters.set(timeZone, format);
  }
  return format.format(now);
}

function localDay(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
