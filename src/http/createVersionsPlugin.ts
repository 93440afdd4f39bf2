/**
 * The plugin factory: parses the options once, loads labels and themes, and returns one Koa middleware (the
 * plugin's routes, pluginRoutes.ts) that a host app mounts next to its record pages, with the helpers for
 * the host's own pages (hostHelpers.ts). A request's language, theme and cookies are chosen in
 * requestSettings.ts, the versions route is versionsRoute.ts; the decisions live in the pure modules
 * (docs/architecture.md, "Core and edges"), the error statuses in errorResponses.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Middleware } from 'koa';
import { parsePluginOptions, type VersionsPluginOptions } from './pluginOptions.js';
import { GENERATOR, LABELS_DIRECTORY, THEMES_DIRECTORY, VIEWS_DIRECTORY } from '../packageFiles.js';
import { openLabelCatalogs } from '../i18n/labelCatalogs.js';
import { createThemeEngine } from './themeEngine.js';
import { buildFeedStylesheet } from '../page/feedStylesheet.js';
import { createVersionsAnswers } from './versionsAnswers.js';
import { createRequestChoices } from './requestSettings.js';
import { createVersionsRoute } from './versionsRoute.js';
import { pluginRoutes } from './pluginRoutes.js';
import { createHostHelpers, type HostHelpers } from './hostHelpers.js';

export type { HostLabels, VersionsLink } from './hostHelpers.js';

/**
 * The middleware a host mounts, with helpers for the host's own pages, so that they agree with the
 * versions pages without repeating the plugin's rules or words.
 */
export interface VersionsPlugin extends Middleware, HostHelpers {}

export function createVersionsPlugin(options: VersionsPluginOptions): VersionsPlugin {
  const config = parsePluginOptions(options);
  const labels = openLabelCatalogs(LABELS_DIRECTORY, config.languages, config.defaultLanguage);
  const themes = createThemeEngine({
    viewsDirectory: VIEWS_DIRECTORY,
    themeDirectories: [...config.themeDirectories, THEMES_DIRECTORY],
    themesByUi: config.themes,
    cacheTemplates: config.cacheTemplates,
  });
  const languageNames = config.languages.map((code) => ({ code, name: labels.translatorFor(code)('language.name') }));
  // The feed's XSL view, with the labels, site name and home it shows filled in (feedStylesheet.ts).
  const feedStylesheet = Buffer.from(buildFeedStylesheet(readFileSync(join(VIEWS_DIRECTORY, 'rss.xsl'), 'utf8'), {
    languages: config.languages.map((code) => ({ code, translate: labels.translatorFor(code) })),
    defaultLanguage: config.defaultLanguage,
    siteTitle: config.siteTitle,
    catalogHomeUrl: config.catalogHomeUrl,
  }));
  // Settings that shape every answer: part of each ETag, so a changed configuration is never answered 304.
  const settingsFingerprint = JSON.stringify([
    GENERATOR, config.siteTitle, config.contact, config.catalogHomeUrl, config.languages, config.themes, config.defaultUi,
  ]);
  const answers = createVersionsAnswers({
    index: config.index, themes, cacheBytes: config.answerCacheBytes, settingsFingerprint, siteTitle: config.siteTitle,
    catalogHomeUrl: config.catalogHomeUrl, generator: GENERATOR, languageNames, now: config.now, timeZone: config.timeZone,
  });

  const choices = createRequestChoices(config, labels, themes);
  const versions = createVersionsRoute({ config, labels, themes, choices, answers, languageNames });
  const middleware = pluginRoutes(config, themes, { versions, feedStylesheet });
  return Object.assign(middleware, createHostHelpers(config, labels, choices));
}
