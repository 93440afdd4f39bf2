/**
 * The versions HTML page as a finished view model (docs/page.md).
 * Templates in views/ and themes/ render it without further lookups. Its parts are made beside it: the
 * entries (versionEntries.ts), the ways to other pages (pageNavigation.ts) and the facets (pageFacets.ts).
 */
import { shortTitleOf, type CatalogRecord } from '../record/catalogRecord.js';
import { showingLine } from '../feed/feedModel.js';
import { offsetOf, PAGE_ROWS } from '../versions/paging.js';
import { recordUrl, versionsFeedUrl, versionsLanguageHrefs } from '../versions/versionsUrls.js';
import type { LanguageChoiceModel, VersionEntryModel, VersionsPageModel } from './pageViewModels.js';
import type { Writable } from './modelValues.js';
import type { VersionsPageInput } from './pageInput.js';
import { entryOf, type PageReasons } from './versionEntries.js';
import { filterParams, paginationOf, pastEndOf, sortOf } from './pageNavigation.js';
import { facetsOf, filteredOf } from './pageFacets.js';

export type { VersionsPageInput };

export function buildVersionsPageModel(input: VersionsPageInput): VersionsPageModel {
  const { translate, versions, page, language } = input;
  const id = input.requestedRecord.id;
  const offset = offsetOf(page, PAGE_ROWS);
  const heading = `${translate('versions.label')} - ${shortTitleOf(input.requestedRecord) ?? translate('record.titleMissing')}`;
  const languageHref = versionsLanguageHrefs(id, page, input.sort, filterParams(input));
  const languageChoices: LanguageChoiceModel[] = input.languages.map(({ code, name }) => ({
    code, name, href: languageHref(code), isCurrent: code === language,
  }));
  const pagination = paginationOf(input);
  const pastEnd = pastEndOf(input);
  const sort = sortOf(input);
  const filtered = filteredOf(input);
  const facets = facetsOf(input);
  const reasons: PageReasons = new Map();
  // The properties set one after another in the model's order, those a page may lack only when it has
  // them, rather than spread in from objects made for the purpose: the same model, without the generic copying.
  const model: Writable<VersionsPageModel> = {
    language,
    documentTitle: `${heading} :: ${input.siteTitle}`,
    siteTitle: input.siteTitle,
    homeLink: { href: input.catalogHomeUrl, label: translate('site.home') },
    skipLinkLabel: translate('site.skipToContent'),
    heading,
    backLink: { href: recordUrl(input.baseUrl, id), label: translate('record.backToRecord') },
    showing: pastEnd?.message ?? showingLine(translate, offset, versions.records.length, versions.total),
  } as Writable<VersionsPageModel>;
  if (pastEnd !== undefined) model.pastEnd = pastEnd;
  model.listStart = offset + 1;
  const entries: VersionEntryModel[] = new Array(versions.records.length);
  for (let i = 0; i < entries.length; i++) entries[i] = entryOf(versions.records[i] as CatalogRecord, input, reasons);
  model.entries = entries;
  if (pagination !== undefined) model.pagination = pagination;
  if (input.feedPreview === true) {
    model.feedPreview = {
      notice: translate('feed.previewNotice'),
      addressLabel: translate('feed.address'),
      address: versionsFeedUrl(input.baseUrl, { id, language }, page > 1 ? page : undefined),
    };
  }
  if (sort !== undefined) model.sort = sort;
  if (filtered !== undefined) model.filtered = filtered;
  if (facets !== undefined) model.facets = facets;
  model.feed = {
    href: versionsFeedUrl(input.baseUrl, { id, language }),
    label: translate('feed.rssLink'),
    title: `${translate('results.for')} ${translate('versions.label')} - ${id}`,
  };
  model.languageChoices = languageChoices;
  model.languageSwitchLabel = translate('language.switchLabel');
  return model;
}
