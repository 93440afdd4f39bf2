/**
 * The error page's view model: three localised lines (docs/errors.md) whatever the error was, in the
 * site's chrome (its name, the way home, the language switch), and, first, what happened and what to do
 * when that is the patron's to know: a missing record, an address naming none, an index not answering
 * (only there "try again later" is the advice). Nothing of the error itself (message, id, cause) goes in.
 * Which status and problem go with which error is src/http/errorResponses.ts's business.
 */
import type { LabelKey, Translate } from '../i18n/labels.js';
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
  /** What the patron should know happened (never naming the record); absent: an unexpected fault. */
  readonly problem?: ErrorProblem;
}

/** The failures the page explains: 404, 400 and 503 (docs/errors.md, "The error page"). */
export type ErrorProblem = 'recordMissing' | 'badRequest' | 'unavailable';

const PROBLEM_LABELS = {
  recordMissing: ['error.recordMissing', 'error.recordMissingAdvice'],
  badRequest: ['error.badRequest', 'error.badRequestAdvice'],
  unavailable: ['error.unavailable', 'error.unavailableAdvice'],
} as const satisfies Record<ErrorProblem, readonly [LabelKey, LabelKey]>;

export function buildErrorPageModel(input: ErrorPageInput): ErrorPageModel {
  const heading = input.translate('error.heading');
  const labels = input.problem !== undefined ? PROBLEM_LABELS[input.problem] : undefined;
  const subject = labels !== undefined ? input.translate(labels[0]) : undefined;
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
    ...(labels !== undefined ? { subject: input.translate(labels[0]), advice: input.translate(labels[1]) } : {}),
  };
}
