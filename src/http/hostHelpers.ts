/**
 * The helpers a host's own pages call on the plugin (docs/options.md, "For the host's own pages"): the
 * request's language, the plugin's labels, and "Show all versions (N)" links, so that a record page or a
 * result list agrees with the versions pages without repeating their rules or words.
 */
import type { Context } from 'koa';
import { InvalidArgumentError } from '../errors.js';
import { checkRecordIds } from '../portArguments.js';
import { hostLabels, type HostLabels } from '../i18n/hostLabels.js';
import type { LabelCatalogs } from '../i18n/labelCatalogs.js';
import { supportedLanguageCode } from '../i18n/resolveLanguage.js';
import { showVersionsUrl } from '../versions/versionsUrls.js';
import type { PluginConfig } from './pluginOptions.js';
import { requestBaseUrl } from './requestAddress.js';
import type { RequestChoices } from './requestSettings.js';

export type { HostLabels };

/** One result's "Show all versions (N)" link, for a host's record page or result list. */
export interface VersionsLink {
  /** Versions of the record's work, itself included. */
  readonly count: number;
  /** The versions page of the record, under the plugin's base URL. */
  readonly href: string;
  /** "Show all versions (N)" in the language. */
  readonly label: string;
}

export interface HostHelpers {
  /** The language the plugin answers this request in: `lng`, the host session, the `language` cookie, Accept-Language, the default. */
  languageOf(ctx: Context): string;
  /** The plugin's labels in a language (one it was configured with; any other value gives the default language's). */
  labelsFor(language: string): HostLabels;
  /**
   * "Show all versions (N)" links for a host's result list or record page: ONE countVersions call for all
   * these ids, a link for each record whose work has more than one version (`minimum` lowers the bar: 1
   * links every record found). In `language`, default languageOf(ctx). Ids of no record get no link.
   */
  versionsLinks(ctx: Context, ids: readonly string[], options?: { readonly language?: string; readonly minimum?: number }): Promise<Map<string, VersionsLink>>;
}

export function createHostHelpers(config: PluginConfig, labels: LabelCatalogs, choices: RequestChoices): HostHelpers {
  /** A value that is not a request's context is refused (the routes ask choices.requestLanguage). */
  function languageOf(ctx: Context): string {
    checkContext('languageOf', ctx);
    return choices.requestLanguage(ctx);
  }

  function labelsFor(language: unknown): HostLabels {
    const offered = typeof language === 'string' ? supportedLanguageCode(language, config.languages) : undefined;
    return hostLabels(labels.translatorFor(offered ?? config.defaultLanguage));
  }

  async function versionsLinks(ctx: Context, ids: readonly string[], options: { readonly language?: string; readonly minimum?: number } = {}): Promise<Map<string, VersionsLink>> {
    checkContext('versionsLinks', ctx);
    checkRecordIds('versionsLinks', ids);
    if (typeof options !== 'object' || options === null || Buffer.isBuffer(options) || Array.isArray(options)
      || (options.minimum !== undefined && typeof options.minimum !== 'number')) {
      throw new InvalidArgumentError('versionsLinks', 'options', 'an object ({ language, minimum }) with minimum a number', options);
    }
    const counts = ids.length === 0 ? new Map<string, number>() : await config.index.countVersions(ids);
    const { showAllVersions } = labelsFor(options.language ?? choices.requestLanguage(ctx));
    const baseUrl = config.baseUrl ?? requestBaseUrl(ctx);
    const minimum = options.minimum ?? 2;
    const links = new Map<string, VersionsLink>();
    for (const [id, count] of counts) {
      if (count >= minimum) links.set(id, { count, href: showVersionsUrl(baseUrl, id), label: showAllVersions(count) });
    }
    return links;
  }

  return { languageOf, labelsFor, versionsLinks };
}

/**
 * Refuses what is not a Koa request context (the host's helpers are called with the `ctx` of a request):
 * undefined, an object, a number. Only what the language choice reads is looked at.
 */
function checkContext(functionName: string, ctx: unknown): asserts ctx is Context {
  const candidate = ctx as Partial<Context> | null | undefined;
  if (typeof candidate !== 'object' || candidate === null || typeof candidate.get !== 'function'
    || typeof candidate.query !== 'object' || candidate.query === null || typeof candidate.cookies?.get !== 'function') {
    throw new InvalidArgumentError(functionName, 'ctx', 'the Koa context of a request (ctx)', ctx);
  }
}
