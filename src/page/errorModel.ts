/**
 * The error page's view model: three localised lines (reference-behaviour.md section 6) and nothing else,
 * whatever the error was. Which status goes with which error is src/http/errorResponses.ts's business.
 */
import type { Translate } from '../i18n/labels.js';
import type { ErrorPageModel } from '../versions/viewModels.js';

export function buildErrorPageModel(input: { language: string; siteTitle: string; contact: string; translate: Translate }): ErrorPageModel {
  const heading = input.translate('error.heading');
  return {
    language: input.language,
    documentTitle: `${heading} :: ${input.siteTitle}`,
    heading,
    message: input.translate('error.message'),
    contactLine: input.translate('error.contact', { contact: input.contact }),
  };
}
