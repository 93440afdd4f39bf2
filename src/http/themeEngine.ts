/**
 * Themes: which theme a `ui` cookie value selects, where each template of a theme comes from, and
 * rendering with Pug (compiled once per theme and template).
 *
 * A theme is a folder with a `theme.json` (`{"extends": "<parent>"}` or `{}`), templates and an `assets/`
 * folder. Every template name (`versions`, `layout`, `includes/version-entry`, …) is looked up in the
 * theme, then the theme it extends, and so on, then in views/ (the defaults): a theme overrides the
 * defaults file by file. A template that extends or includes its own name gets the next one down the
 * chain, so a theme's `layout.pug` can `extends layout` to wrap the default layout, and its
 * `includes/version-entry.pug` can `include includes/version-entry` and redefine one part's mixin
 * (docs/themes.md, "Changing part of the entry").
 *
 * A theme may extend its own name: it then extends the theme of that name found after it in the theme
 * folders (a host's `standard` over the shipped one). Every other name means the first theme of that name,
 * so the shipped `mobile`, which extends `standard`, lays itself over the host's `standard` too: one
 * branded theme styles both layouts (docs/themes.md, "Branding both layouts"). A theme hidden that way
 * serves its assets under `<name>.<n>` (`/themes/standard.1/assets/theme.css`), n counting the themes of
 * that name before it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import pug from 'pug';
import { InvalidOptionError } from '../errors.js';
import type { ThemeModel } from '../page/pageViewModels.js';
import { themeAssetPath } from '../versions/versionsUrls.js';

export interface ThemeDefinition {
  readonly name: string;
  readonly directory: string;
  readonly parent?: string;
  /** How many themes of the same name come before this one in the theme folders (0: the one the name selects). */
  readonly depth: number;
}

/** The name a theme's assets are served under: its own, or `<name>.<depth>` for one hidden by another of its name. */
const assetKeyOf = (theme: ThemeDefinition): string => theme.depth === 0 ? theme.name : `${theme.name}.${theme.depth}`;

export type TemplateName = 'versions' | 'error';

export interface ThemeEngine {
  /** The theme for a `ui` cookie value (already known to be a key of the themes map). */
  themeForUi(ui: string): string;
  /** The layout's theme model: the name and the stylesheets of the chain, base first. */
  themeModel(theme: string, baseUrl: string): ThemeModel;
  /** The file of `assets/<file>` in the theme served as `theme` (`standard`, or `standard.1` for one hidden by another `standard`), or undefined. */
  assetFile(theme: string, file: string): string | undefined;
  /**
   * Renders a template of a theme with these locals and nothing else: not the host's ctx.state, so that a
   * page is a function of its view model and the plugin may reuse it (answerCache.ts).
   */
  render(template: TemplateName, theme: string, locals: Record<string, unknown>): Promise<string>;
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;
export const ASSET_FILE = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;

/**
 * Every theme in `directories`, by name, in folder order: the first of a name is the one the name selects;
 * the later ones are reached only by a theme that extends its own name.
 */
export function discoverThemes(directories: readonly string[]): Map<string, ThemeDefinition[]> {
  const themes = new Map<string, ThemeDefinition[]>();
  for (const folder of directories) {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const directory = join(folder, entry.name);
      const manifestPath = join(directory, 'theme.json');
      if (!entry.isDirectory() || !existsSync(manifestPath)) continue;
      let manifest: { extends?: unknown };
      try {
        manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { extends?: unknown };
      } catch (error) {
        throw new InvalidOptionError('themeDirectories', `${manifestPath} is not valid JSON (${(error as Error).message})`);
      }
      if (!NAME.test(entry.name)) throw new InvalidOptionError('themeDirectories', `theme folder name ${JSON.stringify(entry.name)} must be letters, digits, '-' or '_'`);
      const parent = manifest.extends;
      if (parent !== undefined && parent !== null && typeof parent !== 'string') {
        throw new InvalidOptionError('themeDirectories', `${manifestPath}: "extends" must be a theme name`);
      }
      const sameName = themes.get(entry.name) ?? [];
      sameName.push({ name: entry.name, directory, depth: sameName.length, ...(typeof parent === 'string' ? { parent } : {}) });
      themes.set(entry.name, sameName);
    }
  }
  return themes;
}

/** The theme and its ancestors, the theme first. */
function chainOf(name: string, themes: ReadonlyMap<string, readonly ThemeDefinition[]>): ThemeDefinition[] {
  const chain: ThemeDefinition[] = [];
  for (let current = themes.get(name)?.[0], wanted = name; ;) {
    if (current === undefined) {
      const child = chain.at(-1);
      const missing = child?.name === wanted
        ? `theme ${JSON.stringify(wanted)} (${child.directory}) extends its own name, but no theme of that name lies in a later theme folder`
        : `theme ${JSON.stringify(wanted)}${child !== undefined ? ` (extended by ${JSON.stringify(child.name)})` : ''} does not exist`;
      throw new InvalidOptionError('themes', `${missing}; known themes: ${[...themes.keys()].join(', ')}`);
    }
    if (chain.includes(current)) throw new InvalidOptionError('themes', `theme ${JSON.stringify(name)} extends itself through ${chain.map((t) => t.name).join(' → ')}`);
    chain.push(current);
    if (current.parent === undefined) return chain;
    wanted = current.parent;
    current = wanted === current.name ? themes.get(wanted)?.[current.depth + 1] : themes.get(wanted)?.[0];
  }
}

function templateFileName(reference: string): string {
  const name = reference.replace(/^\/+/, '');
  const parts = name.split('/');
  if (name === '' || isAbsolute(name) || parts.some((part) => part === '..' || part === '.' || part === '')) {
    throw new Error(`Template reference ${JSON.stringify(reference)} must be a relative name like "includes/entry"`);
  }
  return name.endsWith('.pug') ? name : `${name}.pug`;
}

export interface ThemeEngineOptions {
  readonly viewsDirectory: string;
  readonly themeDirectories: readonly string[];
  readonly themesByUi: Readonly<Record<string, string>>;
  readonly cacheTemplates: boolean;
}

export function createThemeEngine(options: ThemeEngineOptions): ThemeEngine {
  const themes = discoverThemes(options.themeDirectories);
  const chains = new Map<string, ThemeDefinition[]>();
  for (const theme of new Set(Object.values(options.themesByUi))) chains.set(theme, chainOf(theme, themes));

  /** Template folders for a theme, most specific first, the defaults last. */
  const layersOf = (theme: string): string[] => [...(chains.get(theme) ?? []).map((t) => t.directory), options.viewsDirectory];

  function resolveTemplate(theme: string, reference: string, fromFile?: string): string {
    const name = templateFileName(reference);
    const layers = layersOf(theme);
    let start = 0;
    if (fromFile !== undefined) {
      const layer = layers.findIndex((folder) => !relative(folder, fromFile).startsWith('..'));
      if (layer >= 0 && relative(layers[layer] ?? '', fromFile).split(sep).join('/') === name) start = layer + 1;
    }
    for (const folder of layers.slice(start)) {
      const file = join(folder, name);
      if (existsSync(file)) return file;
    }
    throw new Error(`Template ${name} not found for theme ${theme}${start > 0 ? ' below the one referring to it' : ''}`);
  }

  // By theme, then template name: found without making a key string per render (and hashing it).
  const compiled = new Map<string, Map<string, pug.compileTemplate>>();
  function compiledTemplate(theme: string, name: TemplateName): pug.compileTemplate {
    const cached = compiled.get(theme)?.get(name);
    if (cached !== undefined) return cached;
    const file = resolveTemplate(theme, `${name}.pug`);
    // `plugins` is part of Pug's compile options but missing from @types/pug.
    const compileOptions = {
      filename: file,
      compileDebug: !options.cacheTemplates,
      plugins: [{ resolve: (reference: string, source: string) => resolveTemplate(theme, reference, source) }],
    } as pug.Options;
    const template = pug.compile(readFileSync(file, 'utf8'), compileOptions);
    if (options.cacheTemplates) {
      const ofTheme = compiled.get(theme) ?? new Map<string, pug.compileTemplate>();
      ofTheme.set(name, template);
      compiled.set(theme, ofTheme);
    }
    return template;
  }

  // Which themes of each chain have a stylesheet, looked up once rather than on every request.
  const styledThemes = new Map([...chains].map(([theme, chain]) => [
    theme,
    [...chain].reverse().filter((t) => existsSync(join(t.directory, 'assets', 'theme.css'))).map(assetKeyOf),
  ]));

  return {
    themeForUi: (ui) => options.themesByUi[ui] ?? Object.values(options.themesByUi)[0] ?? 'standard',
    themeModel(theme, baseUrl) {
      const stylesheets = (styledThemes.get(theme) ?? []).map((name) => `${baseUrl}${themeAssetPath(name, 'theme.css')}`);
      return { name: theme, stylesheets };
    },
    assetFile(theme, file) {
      const [, name = '', depth = '0'] = /^([A-Za-z0-9_-]{1,64})(?:\.([1-9][0-9]{0,2}))?$/.exec(theme) ?? [];
      const definition = themes.get(name)?.[Number(depth)];
      if (definition === undefined || !ASSET_FILE.test(file)) return undefined;
      const path = join(definition.directory, 'assets', file);
      return existsSync(path) && statSync(path).isFile() ? path : undefined;
    },
    async render(template, theme, locals) {
      // Straight to the compiled template: through koa-views (the design card's choice) every render also
      // looked the file up on disk, a large share of a page's time (docs/architecture.md, "Other packages"; docs/benchmarks.md).
      return compiledTemplate(theme, template)(locals);
    },
  };
}
