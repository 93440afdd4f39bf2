/**
 * The error page's view model: three localised lines (docs/errors.md) whatever the error was, in the
 * site's chrome (its name, the way home, the language switch), and, first, what happened and what to do
 * when that is the patron's to know: a missing record, an address naming none, an index not answering
 * (only there "try again later" is the advice). Nothing of the error itself (message, id, cause) goes in.
 * Which problem goes with which error, and each problem's labels, are src/errors.ts's table's; which
 * error a request met is src/http/errorResponses.ts's business.
 */
import { ERROR_DEFINITIONS, type ErrorPage } from '../errors.js';
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
  /** What the patron should know happened (never naming the record); absent: an unexpected fault. */
  readonly problem?: ErrorProblem;
}

/** The failures the page explains: 404, 400 and 503 (docs/errors.md, "The error page"). */
export type ErrorProblem = ErrorPage['problem'];

/** Each problem's subheading and advice labels, from the rows of the table that have a page. */
const PROBLEM_LABELS: ReadonlyMap<ErrorProblem, ErrorPage> = new Map(
  Object.values(ERROR_DEFINITIONS).flatMap((definition) => ('page' in definition ? [[definition.page.problem, definition.page] as const] : [])),
);

export function buildErrorPageModel(input: ErrorPageInput): ErrorPageModel {
  const heading = input.translate('error.heading');
  const labels = input.problem !== undefined ? PROBLEM_LABELS.get(input.problem) : undefined;
  const subject = labels !== undefined ? input.translate(labels.subject) : undefined;
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
    ...(labels !== undefined ? { subject: input.translate(labels.subject), advice: input.translate(labels.advice) } : {}),
  };
}
