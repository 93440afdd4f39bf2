/**
 * The checks of the plugin's options whose values have rules of their own (addresses, the index, the time
 * zone, non-empty text), each throwing an InvalidOptionError that names the option; PLUGIN_OPTIONS
 * (pluginOptions.ts) says which option each checks.
 */
import { describeValue, InvalidOptionError } from '../errors.js';
import { ianaTimeZone, processTimeZone, type ServerTimeZone } from '../feed/rfc822Date.js';
import type { CatalogIndex } from '../ports.js';

/** A non-empty string (not only spaces). */
export function nonEmptyText(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new InvalidOptionError(name, `must be a non-empty string, got ${JSON.stringify(value)}`);
  return value;
}

export function parseBaseUrl(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new InvalidOptionError('baseUrl', `must be a string URL, got ${typeof value}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidOptionError('baseUrl', `must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidOptionError('baseUrl', `must use http or https, got ${url.protocol}`);
  if (url.search !== '' || url.hash !== '') throw new InvalidOptionError('baseUrl', 'must not carry a query or a fragment');
  return url.href.replace(/\/+$/, '');
}

/**
 * The home link: an absolute http(s) URL, or a path on this site. A path must start with one `/`
 * (`//host` would leave the site), and neither may hold spaces or control characters, which browsers
 * strip or mangle.
 */
export function parseCatalogHomeUrl(value: unknown): string {
  const problem = 'must be an absolute http(s) URL or a path starting with "/"';
  if (typeof value !== 'string' || value === '' || /[\s\u0000-\u001f\u007f\\]/.test(value)) {
    throw new InvalidOptionError('catalogHomeUrl', `${problem}, got ${JSON.stringify(value)}`);
  }
  if (value.startsWith('/')) {
    if (value.startsWith('//')) throw new InvalidOptionError('catalogHomeUrl', `${problem}; "//" leaves the site, got ${JSON.stringify(value)}`);
    return value;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidOptionError('catalogHomeUrl', `${problem}, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidOptionError('catalogHomeUrl', `must use http or https, got ${url.protocol}`);
  return url.href;
}

export function isCatalogIndex(value: unknown): value is CatalogIndex {
  const index = value as Partial<CatalogIndex> | null;
  return typeof index === 'object' && index !== null && typeof index.getRecord === 'function' && typeof index.findVersions === 'function';
}

/** The `timeZone` option: an IANA zone name Node knows, or an object with both ServerTimeZone methods. */
export function checkedTimeZone(value: unknown): ServerTimeZone {
  if (value === undefined) return processTimeZone;
  if (typeof value === 'string') {
    try {
      return ianaTimeZone(value);
    } catch {
      throw new InvalidOptionError('timeZone', `${JSON.stringify(value)} is not an IANA time zone name (e.g. America/Sao_Paulo, Europe/Lisbon, UTC)`);
    }
  }
  const zone = value as Partial<ServerTimeZone> | null;
  if (typeof zone === 'object' && zone !== null && typeof zone.timeOfDay === 'function' && typeof zone.offsetMinutesOnNewYear === 'function') {
    return zone as ServerTimeZone;
  }
  throw new InvalidOptionError('timeZone', `must be an IANA time zone name (e.g. America/Sao_Paulo) or an object with timeOfDay() and offsetMinutesOnNewYear(), got ${describeValue(value)}`);
}
