/**
 * The feed's XSL stylesheet as the plugin serves it: views/rss.xsl with its generated part filled in once,
 * when the plugin is created. The feed carries only the contract's elements, so the words the browser view
 * needs besides them ("Versions", "Published in", the format labels, the language names, the site's name
 * and home) come from the same label table as the HTML page (i18n/*.json through labelCatalogs.ts) and the
 * plugin's options, written into the stylesheet as XSLT: one stylesheet serves every language, choosing by
 * the `lng` of the channel link.
 *
 * Left to others: serving it (src/http/pluginRoutes.ts), the view's markup and logic (views/rss.xsl), its
 * look (the standard theme's stylesheet).
 */
import { xmlText } from '../feed/renderVersionsFeed.js';
import { FORMAT_ALIASES, FORMAT_NAMES, foldFormat, placeholdersOf, type LabelKey, type Translate } from '../i18n/labels.js';

export interface FeedStylesheetSettings {
  /** The offered languages in switch order, each with its labels. */
  readonly languages: ReadonlyArray<{ readonly code: string; readonly translate: Translate }>;
  /** The language of a feed whose channel link names none of them. */
  readonly defaultLanguage: string;
  readonly siteTitle: string;
  readonly catalogHomeUrl: string;
}

/** The labels rss.xsl asks for through its `label` template. */
export const FEED_VIEW_LABELS: readonly LabelKey[] = [
  'versions.label', 'record.publishedIn', 'record.requested', 'site.skipToContent', 'site.home', 'language.switchLabel',
  'paging.label', 'paging.pastEnd',
];

/** Placeholders a label may use in the view; each is a parameter of the `label` template. */
const VIEW_PLACEHOLDERS = ['page', 'last'] as const;

const BEGIN = '<!-- generated: begin -->';
const END = '<!-- generated: end -->';

function quoted(text: string): string {
  // An XPath string literal inside a double-quoted XML attribute: label keys, language codes and folded
  // formats need no escaping.
  if (!/^[A-Za-z0-9.-]*$/.test(text)) throw new Error(`feed stylesheet: unexpected literal ${JSON.stringify(text)}`);
  return `'${text}'`;
}

/** A label's text as XSLT: its placeholders become the template's parameters. */
function labelXslt(key: LabelKey, template: string): string {
  const unknown = placeholdersOf(template).filter((name) => !(VIEW_PLACEHOLDERS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`feed stylesheet: label ${key} uses {${unknown.join('}, {')}}, which the view cannot fill`);
  return template.split(/(\{[A-Za-z0-9_]+\})/).map((part) => {
    const name = /^\{([A-Za-z0-9_]+)\}$/.exec(part)?.[1];
    return name !== undefined ? `<xsl:value-of select="$${name}"/>` : part === '' ? '' : `<xsl:text>${xmlText(part)}</xsl:text>`;
  }).join('');
}

/** An `xsl:choose` over the interface language; the default language answers for any other. */
function byLanguage(settings: FeedStylesheetSettings, text: (translate: Translate) => string): string {
  const others = settings.languages.filter(({ code }) => code !== settings.defaultLanguage);
  const fallback = settings.languages.find(({ code }) => code === settings.defaultLanguage) ?? settings.languages[0];
  if (fallback === undefined) throw new Error('feed stylesheet: no language');
  return `<xsl:choose>${others.map(({ code, translate }) => `<xsl:when test="$lang = ${quoted(code)}">${text(translate)}</xsl:when>`).join('')}`
    + `<xsl:otherwise>${text(fallback.translate)}</xsl:otherwise></xsl:choose>`;
}

function generatedPart(settings: FeedStylesheetSettings): string {
  const labels = FEED_VIEW_LABELS.map((key) =>
    `      <xsl:when test="$key = ${quoted(key)}">${byLanguage(settings, (translate) => labelXslt(key, translate(key)))}</xsl:when>`);
  const foldedSpellings = new Map<string, string[]>(FORMAT_NAMES.map((name) => [name, [foldFormat(name)]]));
  for (const [folded, name] of Object.entries(FORMAT_ALIASES)) foldedSpellings.get(name)?.push(folded);
  const formats = FORMAT_NAMES.map((name) => {
    const test = (foldedSpellings.get(name) ?? []).map((folded) => `$folded = ${quoted(folded)}`).join(' or ');
    return `      <xsl:when test="${test}">${byLanguage(settings, (translate) => `<xsl:text>${xmlText(translate(`format.${name}`))}</xsl:text>`)}</xsl:when>`;
  });
  const choices = settings.languages.map(({ code, translate }) => {
    const name = xmlText(translate('language.name'));
    return `    <li><xsl:choose><xsl:when test="$lang = ${quoted(code)}"><span class="language-switch__current" lang="${code}" aria-current="true">${name}</span></xsl:when>`
      + `<xsl:otherwise><a href="{$self-before-lng}&amp;lng=${code}{$self-after-lng}" lang="${code}" hreflang="${code}">${name}</a></xsl:otherwise></xsl:choose></li>`;
  });
  return [
    BEGIN,
    `  <xsl:variable name="site-title">${xmlText(settings.siteTitle)}</xsl:variable>`,
    `  <xsl:variable name="home-href">${xmlText(settings.catalogHomeUrl)}</xsl:variable>`,
    '  <xsl:template name="label">',
    '    <xsl:param name="key"/>',
    ...VIEW_PLACEHOLDERS.map((name) => `    <xsl:param name="${name}"/>`),
    '    <xsl:choose>',
    ...labels,
    '    </xsl:choose>',
    '  </xsl:template>',
    '  <xsl:template name="format-label">',
    '    <xsl:param name="value"/>',
    '    <xsl:variable name="folded" select="translate(normalize-space($value), \'ABCDEFGHIJKLMNOPQRSTUVWXYZ -_./\', \'abcdefghijklmnopqrstuvwxyz\')"/>',
    '    <xsl:choose>',
    ...formats,
    '      <xsl:otherwise><xsl:value-of select="$value"/></xsl:otherwise>',
    '    </xsl:choose>',
    '  </xsl:template>',
    '  <xsl:template name="language-choices">',
    ...choices,
    '  </xsl:template>',
    `  ${END}`,
  ].join('\n');
}

/** views/rss.xsl (its text) with the generated part in place of the placeholder part between the markers. */
export function buildFeedStylesheet(template: string, settings: FeedStylesheetSettings): string {
  const begin = template.indexOf(BEGIN);
  const end = template.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`views/rss.xsl lacks the "${BEGIN}" … "${END}" part the plugin fills in`);
  return `${template.slice(0, begin)}${generatedPart(settings)}${template.slice(end + END.length)}`;
}
