/**
 * The versions HTML page as a finished view model (spec section 2.4, reference-behaviour.md section 3).
 * Templates in views/ and themes/ render it without further lookups.
 */
import { mainAuthorOf, shortTitleOf, yearOf, type CatalogRecord } from '../record/catalogRecord.js';
import { showingLine } from '../feed/feedModel.js';
import type { Translate } from '../i18n/labels.js';
import { lastPageOf, offsetOf, PAGE_ROWS, visiblePageNumbers } from '../versions/paging.js';
import { recordUrl, versionsFeedUrl, versionsLanguageHref, versionsPageHref } from '../versions/versionsUrls.js';
import type { LanguageChoiceModel, PaginationModel, VersionEntryModel, VersionsPageModel } from '../versions/viewModels.js';
import type { VersionsPage } from '../versions/catalogIndex.js';

export interface VersionsPageInput {
  readonly requestedRecord: CatalogRecord;
  readonly versions: VersionsPage;
  readonly page: number;
  readonly language: string;
  /** The `lng` the request carried, kept in page links (only when it named a supported language). */
  readonly explicitLanguage?: string;
  readonly baseUrl: string;
  readonly siteTitle: string;
  readonly translate: Translate;
  /** Every offered language with its own name, in the configured order. */
  readonly languages: ReadonlyArray<{ readonly code: string; readonly name: string }>;
}

/** Full-text links are followed by patrons: only web addresses become links (no `javascript:`, `data:`, …). */
function isWebAddress(url: string): boolean {
  return /^https?:\/\/[^\s]+$/i.test(url.trim());
}

function entryOf(record: CatalogRecord, input: VersionsPageInput): VersionEntryModel {
  const year = yearOf(record);
  const author = mainAuthorOf(record);
  const title = record.title !== undefined && record.title.trim() !== '' ? record.title : input.translate('record.titleMissing');
  return {
    title,
    recordUrl: recordUrl(input.baseUrl, record.id),
    isRequestedRecord: record.id === input.requestedRecord.id,
    ...(author !== undefined ? { author } : {}),
    ...(year !== undefined ? { year, publishedIn: `${input.translate('record.publishedIn')} ${year}` } : {}),
    formats: record.formats,
    fullTextLinks: record.urls.filter(isWebAddress).map((href) => ({ href: href.trim(), label: input.translate('record.fullText') })),
  };
}

function paginationOf(input: VersionsPageInput): PaginationModel | undefined {
  const { page, versions, translate, explicitLanguage } = input;
  const id = input.requestedRecord.id;
  const last = lastPageOf(versions.total, PAGE_ROWS);
  if (last === 1 && page === 1) return undefined;
  const href = (n: number) => versionsPageHref(id, n, explicitLanguage);
  return {
    label: translate('paging.label'),
    pages: visiblePageNumbers(Math.min(page, last), last).map((n) => ({ number: n, href: href(n), isCurrent: n === page })),
    ...(page > 1 ? { previous: { href: href(Math.min(page - 1, last)), label: translate('paging.previous') } } : {}),
    ...(page < last ? { next: { href: href(page + 1), label: translate('paging.next') } } : {}),
  };
}

export function buildVersionsPageModel(input: VersionsPageInput): VersionsPageModel {
  const { translate, versions, page, language } = input;
  const id = input.requestedRecord.id;
  const offset = offsetOf(page, PAGE_ROWS);
  const heading = `${translate('versions.label')} - ${shortTitleOf(input.requestedRecord) ?? translate('record.titleMissing')}`;
  const languageChoices: LanguageChoiceModel[] = input.languages.map(({ code, name }) => ({
    code, name, href: versionsLanguageHref(id, page, code), isCurrent: code === language,
  }));
  const pagination = paginationOf(input);
  return {
    language,
    documentTitle: `${heading} :: ${input.siteTitle}`,
    siteTitle: input.siteTitle,
    heading,
    showing: showingLine(translate, offset, versions.records.length, versions.total),
    listStart: offset + 1,
    entries: versions.records.map((record) => entryOf(record, input)),
    ...(pagination !== undefined ? { pagination } : {}),
    feed: {
      href: versionsFeedUrl(input.baseUrl, { id, language }),
      label: translate('feed.rssLink'),
      title: `${translate('results.for')} ${translate('versions.label')} - ${id}`,
    },
    languageChoices,
    languageSwitchLabel: translate('language.switchLabel'),
  };
}
