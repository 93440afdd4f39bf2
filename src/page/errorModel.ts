/**
 * The error page's view model: three localised lines (docs/errors.md) whatever the error was, in the
 * site's chrome (its name, the way home, the language switch), with a heading that says so when the
 * record asked for is missing. Nothing of the error itself (message, id, cause) goes in. Which status goes
 * with which error is src/http/errorResponses.ts's business.
 */
import type { Translate } from '../i18n/labels.js';
import { catalogHomeHref } from '../versions/versionsUrls.js';
import type { ErrorPageModel } from './pageViewModels.js';

export interface ErrorPageInput {
  readonly language: string;
  readonly siteTitle: string;
  readonly contact: string;
  readonly translate: Translate;
  /** The catalog's home (the catalogHomeUrl option). */
  readonly catalogHomeUrl: string;
  /** Every offered language with its own name, in the configured order. */
  readonly languages: ReadonlyArray<{ readonly code: string; readonly name: string }>;
  /** The record asked for is not in the catalog: the page says so above the three lines (never naming it). */
  readonly recordMissing?: boolean;
}

export function buildErrorPageModel(input: ErrorPageInput): ErrorPageModel {
  const heading = input.translate('error.heading');
  const subject = input.recordMissing === true ? input.translate('error.recordMissing') : undefined;
  return {
    language: input.language,
    documentTitle: `${subject !== undefined ? `${heading} - ${subject}` : heading} :: ${input.siteTitle}`,
    siteTitle: input.siteTitle,
    homeLink: { href: input.catalogHomeUrl, label: input.translate('site.home') },
    skipLinkLabel: input.translate('site.skipToContent'),
    languageChoices: input.languages.map(({ code, name }) => ({
      code, name, href: catalogHomeHref(input.catalogHomeUrl, code), isCurrent: code === input.language,
    })),
    languageSwitchLabel: input.translate('language.switchLabel'),
    heading,
    message: input.translate('error.message'),
    contactLine: input.translate('error.contact', { contact: input.contact }),
    ...(subject !== undefined ? { subject } : {}),
  };
}
