import test from 'ava';
import { formatUtcOffset, newYearPubDate, type ServerTimeZone } from '../../src/feed/rfc822Date.js';

const fixedZone = (offset: number): ServerTimeZone => ({
  timeOfDay: () => ({ hours: 9, minutes: 5, seconds: 7 }),
  offsetMinutesOnNewYear: () => offset,
});

test('1 January of the year, at the request time of day, with the zone offset', (t) => {
  t.is(newYearPubDate(2019, new Date(), fixedZone(-180)), 'Tue, 01 Jan 2019 09:05:07 -0300');
  t.is(newYearPubDate(2000, new Date(), fixedZone(0)), 'Sat, 01 Jan 2000 09:05:07 +0000');
  // proleptic Gregorian calendar, as PHP's date() and every RSS reader use
  t.is(newYearPubDate(1554, new Date(), fixedZone(330)), 'Fri, 01 Jan 1554 09:05:07 +0530');
  t.is(newYearPubDate(1881, new Date(), fixedZone(-570)), 'Sat, 01 Jan 1881 09:05:07 -0930');
});

test('offsets are formatted as sign, hours, minutes', (t) => {
  t.is(formatUtcOffset(-180), '-0300');
  t.is(formatUtcOffset(345), '+0545');
  t.is(formatUtcOffset(0), '+0000');
});
