/**
 * The versions route (`/Search/Versions`): reads the request's parameters and choices, gets the answer from
 * versionsAnswers.ts (built through the core, kept while the index is unchanged) and sends it
 * (answerResponse.ts); a failure, of the route or of anything around it, gets the localised error page
 * (errorResponses.ts) and never a stack.
 */
import type { Context } from 'koa';
import type { LabelCatalogs } from '../i18n/labelCatalogs.js';
import { pageNumberFrom } from '../versions/paging.js';
import { pageSortFrom } from '../versions/versionsSorts.js';
import { filtersFrom } from '../versions/versionsFilters.js';
import type { ThemeModel } from '../page/pageViewModels.js';
import { respondWithErrorPage, type ErrorPageSettings } from './errorResponses.js';
import type { PluginConfig } from './pluginOptions.js';
import { requestBaseUrl } from './requestAddress.js';
import type { RequestChoices, RequestSettings } from './requestSettings.js';
import { sendAnswer } from './answerResponse.js';
import type { ThemeEngine } from './themeEngine.js';
import type { AnswerRequest, VersionsAnswer, VersionsAnswers } from './versionsAnswers.js';
import { parametersOfParsedQuery, parametersOfQuerystring } from './versionsRequestParameters.js';

export interface VersionsRouteParts {
  readonly config: PluginConfig;
  readonly labels: LabelCatalogs;
  readonly themes: ThemeEngine;
  readonly choices: RequestChoices;
  readonly answers: VersionsAnswers;
  /** Every offered language with its own name, for the error page's language switch. */
  readonly languageNames: ErrorPageSettings['languages'];
}

/**
 * The versions route within its last line of defence. A kept answer is sent at once, without a promise to
 * wait for; an answer built from the index is sent when ready. Either way the status, headers and body are
 * on ctx when the host's middleware resumes after `await next()`.
 */
export function createVersionsRoute(parts: VersionsRouteParts): (ctx: Context) => Promise<void> | undefined {
  const { config, labels, themes, choices, answers, languageNames } = parts;

  function versionsRoute(ctx: Context): Promise<void> | undefined {
    // Koa keeps the object once someone has read ctx.query: a host may have changed it, so it is read then.
    const parameters = (ctx.request as { _querycache?: unknown })._querycache === undefined ? parametersOfQuerystring(ctx.querystring) : parametersOfParsedQuery(ctx.query);
    const settings = choices.settingsOf(ctx, parameters);
    choices.rememberChoices(ctx, settings);
    let answer: VersionsAnswer | Promise<VersionsAnswer>;
    try {
      const page = pageNumberFrom(parameters.page);
      const sort = pageSortFrom(parameters.sort);
      const filters = filtersFrom(parameters.filters);
      // Written out rather than spread from the settings: a spread of this many properties is the
      // slowest step of sending a kept answer.
      const request: AnswerRequest = {
        id: parameters.id, page, sort, filters, view: settings.view, language: settings.language, explicitLanguage: settings.explicitLanguage,
        translate: settings.translate, theme: settings.theme, baseUrl: settings.baseUrl, feedPreview: settings.feedPreview,
      };
      answer = answers.keptOrBuilt(request);
      if (!(answer instanceof Promise)) {
        sendAnswer(ctx, settings, answer, answers, config.baseUrl);
        return undefined;
      }
    } catch (error) {
      return routeFailed(ctx, settings, error);
    }
    return answer.then((built) => sendAnswer(ctx, settings, built, answers, config.baseUrl)).catch((error: unknown) => routeFailed(ctx, settings, error));
  }

  /** The error page of a failure in the route, in the request's language and theme. */
  function routeFailed(ctx: Context, settings: RequestSettings, error: unknown): Promise<void> {
    return respondWithErrorPage(ctx, error, errorPageSettings(settings.language, settings.theme));
  }

  /** What the error page needs besides the error: the same for a route's own failure and for the boundary. */
  function errorPageSettings(language: string, theme: ThemeModel): ErrorPageSettings {
    return {
      language, translate: labels.translatorFor(language), theme, siteTitle: config.siteTitle, contact: config.contact,
      catalogHomeUrl: config.catalogHomeUrl, languages: languageNames, configuredBaseUrl: config.baseUrl, engine: themes, logger: config.logger,
    };
  }

  /** A failure outside the route's own handling, in the default language and ui. */
  function boundaryFailed(ctx: Context, error: unknown): Promise<void> {
    const theme = choices.themeModelOf(config.defaultUi, config.baseUrl ?? requestBaseUrl(ctx));
    return respondWithErrorPage(ctx, error, errorPageSettings(config.defaultLanguage, theme));
  }

  return (ctx) => {
    let pending: Promise<void> | undefined;
    try {
      pending = versionsRoute(ctx);
    } catch (error) {
      return boundaryFailed(ctx, error);
    }
    return pending?.catch((error: unknown) => boundaryFailed(ctx, error));
  };
}
