/**
 * The feed item's `pubDate`: 1 January of the record's year at the request's time of day, with the
 * server's UTC offset on that date (docs/feed.md, "pubDate"), in RFC 822 form
 * (`Tue, 01 Jan 2019 14:03:27 -0300`). The clock and the time zone are arguments, so this stays pure.
 */

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

export interface TimeOfDay {
  readonly hours: number;
  readonly minutes: number;
  readonly seconds: number;
}

/** The server's time zone as the feed needs it. */
export interface ServerTimeZone {
  /** Local time of day of an instant. */
  timeOfDay(instant: Date): TimeOfDay;
  /** UTC offset in minutes east of UTC (São Paulo: -180) in force at 1 January of `year`, at `time`. */
  offsetMinutesOnNewYear(year: number, time: TimeOfDay): number;
}

/** The process's own time zone (the `TZ` environment variable, else the system's). */
export const processTimeZone: ServerTimeZone = {
  timeOfDay: (instant) => ({ hours: instant.getHours(), minutes: instant.getMinutes(), seconds: instant.getSeconds() }),
  offsetMinutesOnNewYear(year, { hours, minutes, seconds }) {
    const local = new Date(2000, 0, 1, hours, minutes, seconds);
    local.setFullYear(year); // setFullYear, unlike the constructor, does not map years 0-99 to 1900-1999
    return -local.getTimezoneOffset();
  },
};

/**
 * The time zone of an IANA name (`America/Sao_Paulo`, `Europe/Lisbon`, `UTC`), from the zone data Node
 * carries (Intl), so that a server need not set `TZ` for its feeds. Throws RangeError for a name Intl does
 * not know; the plugin's option check turns that into InvalidOptionError (src/http/pluginOptions.ts).
 */
export function ianaTimeZone(name: string): ServerTimeZone {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: name, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
  });
  const localFields = (instant: Date): Record<string, number> => {
    const fields: Record<string, number> = {};
    for (const part of format.formatToParts(instant)) if (part.type !== 'literal' && part.type !== 'era') fields[part.type] = Number(part.value);
    return fields;
  };
  /** Minutes east of UTC in force at an instant. */
  const offsetAt = (instant: number): number => {
    const local = localFields(new Date(instant));
    const asUtc = new Date(0);
    asUtc.setUTCFullYear(local.year!, local.month! - 1, local.day!);
    asUtc.setUTCHours(local.hour! % 24, local.minute!, local.second!);
    // Whole minutes toward zero, as Date#getTimezoneOffset gives a local mean time such as Lisbon's -0:36:45.
    return Math.trunc((asUtc.getTime() - Math.floor(instant / 1000) * 1000) / 60_000);
  };
  return {
    timeOfDay(instant) {
      const local = localFields(instant);
      return { hours: local.hour! % 24, minutes: local.minute!, seconds: local.second! };
    },
    offsetMinutesOnNewYear(year, { hours, minutes, seconds }) {
      const wallClock = new Date(0);
      wallClock.setUTCFullYear(year, 0, 1);
      wallClock.setUTCHours(hours, minutes, seconds);
      // The offset at the wall-clock time read as UTC, then at the instant that offset gives: right on
      // both sides of a change, as the process zone's answer is.
      const guess = offsetAt(wallClock.getTime());
      return offsetAt(wallClock.getTime() - guess * 60_000);
    },
  };
}

const two = (n: number) => String(n).padStart(2, '0');

export function formatUtcOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const magnitude = Math.abs(offsetMinutes);
  return `${sign}${two(Math.floor(magnitude / 60))}${two(magnitude % 60)}`;
}

export function newYearPubDate(year: number, now: Date, zone: ServerTimeZone): string {
  const time = zone.timeOfDay(now);
  const newYear = new Date(0);
  newYear.setUTCFullYear(year, 0, 1); // the weekday of a calendar date does not depend on the time zone
  const weekday = WEEKDAYS[newYear.getUTCDay()];
  const offset = formatUtcOffset(zone.offsetMinutesOnNewYear(year, time));
  return `${weekday}, 01 Jan ${String(year).padStart(4, '0')} ${two(time.hours)}:${two(time.minutes)}:${two(time.seconds)} ${offset}`;
}

/**
 * The pubDates of one instant, each year's worked out once (a feed's items share few years), as texts or
 * in the form `as` gives them (bytes, for a feed that is sent as bytes).
 */
export function newYearPubDatesAt(now: Date, zone: ServerTimeZone): (year: number) => string;
export function newYearPubDatesAt<T>(now: Date, zone: ServerTimeZone, as: (text: string) => T): (year: number) => T;
export function newYearPubDatesAt(now: Date, zone: ServerTimeZone, as: (text: string) => unknown = (text) => text): (year: number) => unknown {
  const dates = new Map<number, unknown>();
  return (year) => {
    let date = dates.get(year);
    if (date === undefined) {
      date = as(newYearPubDate(year, now, zone));
      dates.set(year, date);
    }
    return date;
  };
}
