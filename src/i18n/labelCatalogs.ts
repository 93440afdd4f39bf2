/**
 * The label files of i18n/ (one JSON file per language, nested semantic keys), loaded through koa-i18n
 * and handed to the core as a Translate function per request.
 *
 * koa-i18n is written for an app of its own: it defines `ctx.i18n` on `app.context`. A plugin must not
 * touch the host's context (a host using koa-i18n itself would clash), so it is given a private context
 * prototype here, and its locale comes from a custom mode that returns the language resolveLanguage chose.
 */
import koaI18n from 'koa-i18n';
import { fillPlaceholderParts, LABEL_KEYS, placeholderParts, type LabelKey, type Translate } from './labels.js';

interface I18nInstance {
  __(key: string): unknown;
  getLocale(): string;
}

export interface LabelCatalogs {
  /** Labels in `language`; must be one of the loaded languages. */
  translatorFor(language: string): Translate;
}

export function openLabelCatalogs(directory: string, languages: readonly string[], defaultLanguage: string): LabelCatalogs {
  const privateApp = { context: {}, request: {} };
  const selectLanguage = koaI18n(privateApp, {
    directory,
    extension: '.json',
    locales: [...languages],
    defaultLocale: defaultLanguage,
    // devMode would re-read the files on every request and write unknown keys into them.
    devMode: false,
    modes: [function chosenLanguage(this: { chosenLanguage: string }) { return this.chosenLanguage; }],
  });

  // One translator per language, made once: the labels never change while the plugin runs.
  const translators = new Map<string, Translate>();

  function makeTranslator(language: string): Translate {
    const scope = Object.create(privateApp.context) as { chosenLanguage: string; request: object; state: object; i18n: I18nInstance };
    scope.chosenLanguage = language;
    scope.request = {};
    scope.state = {};
    // koa-i18n sets the locale before it calls next(), so the scope is ready without awaiting.
    void selectLanguage(scope, async () => undefined);
    const i18n = scope.i18n;
    // Each key looked up through koa-i18n once: its lookup splits the dotted key and walks the file's
    // objects on every call, several times per feed and per page entry, and the labels never change.
    const templates = new Map<LabelKey, string>();
    // Labels with values (placeholders), each cut at its placeholders once.
    const partsOfTemplates = new Map<LabelKey, readonly string[]>();
    return (key: LabelKey, params) => {
      let template = templates.get(key);
      if (template === undefined) {
        const text = i18n.__(key);
        template = typeof text === 'string' ? text : key;
        templates.set(key, template);
      }
      // Without values, every placeholder stays as written: the template is the text.
      if (params === undefined) return template;
      let parts = partsOfTemplates.get(key);
      if (parts === undefined) {
        parts = placeholderParts(template);
        partsOfTemplates.set(key, parts);
      }
      return fillPlaceholderParts(parts, params);
    };
  }

  function translatorFor(language: string): Translate {
    let translate = translators.get(language);
    if (translate === undefined) {
      translate = makeTranslator(language);
      translators.set(language, translate);
    }
    return translate;
  }

  // A label file without a key would show the key to patrons: refuse to start instead.
  for (const language of languages) {
    const translate = translatorFor(language);
    const missing = LABEL_KEYS.filter((key) => translate(key) === key);
    if (missing.length > 0) throw new Error(`Label file ${language}.json lacks: ${missing.join(', ')}`);
  }
  return { translatorFor };
}
