/**
 * What the versions page is made from (VersionsPageInput): the record asked for, its versions, the request's
 * language, sort and filters. Its own file so that the page model and its parts (versionEntries.ts,
 * pageNavigation.ts, pageFacets.ts) all read it without importing one another.
 */
import type { CatalogRecord } from '../record/catalogRecord.js';
import type { Translate } from '../i18n/labels.js';
import type { VersionsFilter, VersionsPage } from '../ports.js';
import type { PageSort } from '../versions/versionsSorts.js';

export interface VersionsPageInput {
  readonly requestedRecord: CatalogRecord;
  readonly versions: VersionsPage;
  readonly page: number;
  readonly language: string;
  /** The `lng` the request carried, kept in page links (only when it named a supported language). */
  readonly explicitLanguage?: string;
  readonly baseUrl: string;
  readonly siteTitle: string;
  /** The catalog's home page (the catalogHomeUrl option), linked from the site header. */
  readonly catalogHomeUrl: string;
  readonly translate: Translate;
  /** Every offered language with its own name, in the configured order. */
  readonly languages: ReadonlyArray<{ readonly code: string; readonly name: string }>;
  /** The page answers a browser that opened the feed's address: it says so and shows that address. */
  readonly feedPreview?: boolean;
  /** The sort asked for (`sort`; the default when absent), kept in page and language links. */
  readonly sort?: PageSort;
  /** The filters applied (`filter[]`): the page says how many versions they leave and offers to clear them. */
  readonly filters?: readonly VersionsFilter[];
}
