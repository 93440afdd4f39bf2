/**
 * The demo host's own words, in the plugin's languages (held to its table, src/i18n/languages.ts, by
 * test/unit/languageTable.test.ts): one table, checked by the compiler (every language has every key of
 * the English one). What the versions pages also say ("Show all versions (N)",
 * the format labels) comes from the plugin itself (its labelsFor), so the two never drift apart.
 *
 * Left to others: choosing the language (languageChoice.ts), the pages (demo/views/).
 */

export const DEMO_LANGUAGES = ['en', 'pt-br', 'es'] as const;
export type DemoLanguage = (typeof DEMO_LANGUAGES)[number];

const en = {
  languageName: 'English',
  languageSwitch: 'Language',
  layoutSwitch: 'Layout',
  layoutStandard: 'Standard layout',
  layoutMobile: 'Mobile layout',
  skipToContent: 'Skip to content',
  searchLabel: 'Search titles and authors',
  searchButton: 'Search',
  homeTitle: 'Home',
  homeHeading: 'Welcome to the catalog',
  homeIntro: 'A small demonstration catalog: editions, translations and reprints of the same works, and theses deposited in several repositories. Search for a title or an author, open a record, and follow “Show all versions” to see every version of its work.',
  homeSearchOff: 'This demonstration reads a Solr core, so its search box is off: open a record from the list below, or go to /Record/ followed by a record id.',
  featuredHeading: 'Works with several versions',
  featuredNone: 'No records to suggest: set FEATURED_IDS to a list of record ids.',
  resultsTitle: 'Search results',
  resultsHeading: 'Results for “{query}”',
  resultsShowing: 'Showing {first} - {last} of {total}',
  resultsNone: 'No records match “{query}”. Try fewer words, or another spelling.',
  resultsEmptyQuery: 'Type words of a title or an author name to search.',
  pagesLabel: 'Pages',
  previousPage: 'Previous',
  nextPage: 'Next',
  titleMissing: 'Title not available',
  author: 'Author',
  otherAuthors: 'Other authors',
  format: 'Format',
  published: 'Published',
  publishedIn: 'Published in {year}',
  source: 'Source',
  fullText: 'Full text',
  recordId: 'Record id',
  recordMissingTitle: 'Record not found',
  recordMissingText: 'There is no record with this id in the catalog. It may have been removed, or the link may be mistyped.',
  backHome: 'Back to the catalog home',
};

export type DemoLabelKey = keyof typeof en;
export type DemoLabels = Readonly<Record<DemoLabelKey, string>>;

export const DEMO_LABELS: Readonly<Record<DemoLanguage, DemoLabels>> = {
  en,
  'pt-br': {
    languageName: 'Português (Brasil)',
    languageSwitch: 'Idioma',
    layoutSwitch: 'Layout',
    layoutStandard: 'Layout padrão',
    layoutMobile: 'Layout para celular',
    skipToContent: 'Pular para o conteúdo',
    searchLabel: 'Buscar títulos e autores',
    searchButton: 'Buscar',
    homeTitle: 'Início',
    homeHeading: 'Bem-vindo ao catálogo',
    homeIntro: 'Um pequeno catálogo de demonstração: edições, traduções e reimpressões das mesmas obras, e teses depositadas em vários repositórios. Busque um título ou um autor, abra um registro e siga “Mostrar todas as versões” para ver todas as versões da obra.',
    homeSearchOff: 'Esta demonstração lê um núcleo Solr, por isso a busca está desligada: abra um registro da lista abaixo, ou vá a /Record/ seguido do identificador de um registro.',
    featuredHeading: 'Obras com várias versões',
    featuredNone: 'Nenhum registro a sugerir: defina FEATURED_IDS com uma lista de identificadores.',
    resultsTitle: 'Resultados da busca',
    resultsHeading: 'Resultados para “{query}”',
    resultsShowing: 'Mostrando {first} - {last} de {total}',
    resultsNone: 'Nenhum registro corresponde a “{query}”. Tente menos palavras ou outra grafia.',
    resultsEmptyQuery: 'Digite palavras de um título ou o nome de um autor para buscar.',
    pagesLabel: 'Páginas',
    previousPage: 'Anterior',
    nextPage: 'Próxima',
    titleMissing: 'Título não disponível',
    author: 'Autor',
    otherAuthors: 'Outros autores',
    format: 'Formato',
    published: 'Publicação',
    publishedIn: 'Publicado em {year}',
    source: 'Fonte',
    fullText: 'Texto integral',
    recordId: 'Identificador',
    recordMissingTitle: 'Registro não encontrado',
    recordMissingText: 'Não há registro com este identificador no catálogo. Ele pode ter sido removido, ou o link pode estar errado.',
    backHome: 'Voltar ao início do catálogo',
  },
  es: {
    languageName: 'Español',
    languageSwitch: 'Idioma',
    layoutSwitch: 'Diseño',
    layoutStandard: 'Diseño estándar',
    layoutMobile: 'Diseño para móvil',
    skipToContent: 'Saltar al contenido',
    searchLabel: 'Buscar títulos y autores',
    searchButton: 'Buscar',
    homeTitle: 'Inicio',
    homeHeading: 'Bienvenido al catálogo',
    homeIntro: 'Un pequeño catálogo de demostración: ediciones, traducciones y reimpresiones de las mismas obras, y tesis depositadas en varios repositorios. Busque un título o un autor, abra un registro y siga “Mostrar todas las versiones” para ver todas las versiones de la obra.',
    homeSearchOff: 'Esta demostración lee un núcleo Solr, por eso la búsqueda está desactivada: abra un registro de la lista de abajo, o vaya a /Record/ seguido del identificador de un registro.',
    featuredHeading: 'Obras con varias versiones',
    featuredNone: 'No hay registros que sugerir: defina FEATURED_IDS con una lista de identificadores.',
    resultsTitle: 'Resultados de la búsqueda',
    resultsHeading: 'Resultados para «{query}»',
    resultsShowing: 'Mostrando {first} - {last} de {total}',
    resultsNone: 'Ningún registro coincide con «{query}». Pruebe con menos palabras u otra grafía.',
    resultsEmptyQuery: 'Escriba palabras de un título o el nombre de un autor para buscar.',
    pagesLabel: 'Páginas',
    previousPage: 'Anterior',
    nextPage: 'Siguiente',
    titleMissing: 'Título no disponible',
    author: 'Autor',
    otherAuthors: 'Otros autores',
    format: 'Formato',
    published: 'Publicación',
    publishedIn: 'Publicado en {year}',
    source: 'Fuente',
    fullText: 'Texto completo',
    recordId: 'Identificador',
    recordMissingTitle: 'Registro no encontrado',
    recordMissingText: 'No hay ningún registro con este identificador en el catálogo. Puede que se haya eliminado, o que el enlace esté mal escrito.',
    backHome: 'Volver al inicio del catálogo',
  },
};

/** A label with its `{name}` placeholders filled in. */
export function demoLabel(labels: DemoLabels, key: DemoLabelKey, params: Readonly<Record<string, string | number>> = {}): string {
  return labels[key].replace(/\{([A-Za-z]+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}
