/**
 * Bad input never hurts (issue item 1). Every query parameter and cookie the plugin reads gets a matrix of
 * hostile values: empty, repeated, 100 KB long, invalid UTF-8, broken percent-encoding, control characters,
 * NUL, HTML and XML metacharacters, header-injection attempts, path tricks, huge and negative numbers.
 *
 * The requests go over a raw socket (node:net) to the plugin listening on 127.0.0.1, byte for byte as
 * written here: HTTP clients "fix" exactly the inputs this file is about (they reject CR/LF, re-encode
 * broken escapes, resolve "../"). The server is created with a large header limit so 100 KB values reach
 * the plugin instead of being stopped by Node's default 16 KB limit (that limit has its own test below).
 *
 * Every answer must be a well-formed page, a well-formed feed, or the localised error page with a 4xx
 * status; never a 5xx; never the input echoed unescaped; never a cookie other than the plugin's own
 * validated values. Requests Node's HTTP parser refuses before the app sees them (raw control or
 * non-ASCII bytes) must get a 4xx from Node, and only requests holding such bytes may be refused.
 */
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import * as cheerio from 'cheerio';
import { parse as parseHtml } from 'parse5';
import { channelOf, childElements, itemsOf, parseFeed, textOf } from '../support/parseFeed.js';
import { BASE_URL, fixture, hostFor, openLoadedIndex } from '../support/testHost.js';
import { describeLogged, type LoggedLine } from '../support/recordingLogger.js';
import type { Document, Element } from '@xmldom/xmldom';
import type Koa from 'koa';
import { note } from '../support/testNotes.js';

// ---------------------------------------------------------------------------------------------------------
// What the answers may contain

const ERROR_LINES: Record<string, readonly string[]> = {
  en: ['An error has occurred', 'An error occurred during execution; please try again later.', 'Please contact the Library Reference Department for assistance'],
  'pt-br': ['Erro na aplicação', 'Ocorreu um erro durante a execução; por favor, tente novamente mais tarde.', 'Por favor contate o Library Reference Department para mais ajuda'],
  es: ['Ha ocurrido un error', 'Se produjo un error durante la ejecución; por favor, inténtelo de nuevo más tarde.', 'Por favor, contacte con Library Reference Department para obtener ayuda'],
};
const RESULTS_FOR_VERSIONS: Record<string, string> = { en: 'Results for Versions', 'pt-br': 'Resultados para Versões', es: 'Resultados para Versiones' };

/** The only cookies the plugin may set, each with the only values it may give them. */
const ALLOWED_COOKIE_VALUES: Record<string, RegExp> = {
  language: /^(en|pt-br|es)$/,
  ui: /^(standard|mobile)$/,
  VUFIND_SESSION: /^[0-9a-f]{32}$/,
};

/** Elements a feed is made of; anything else would be markup smuggled in from the input. */
const FEED_ELEMENTS = new Set([
  'rss', 'channel', 'title', 'description', 'generator', 'link', 'opensearch:totalResults', 'opensearch:startIndex',
  'opensearch:itemsPerPage', 'opensearch:Query', 'atom:link', 'item', 'pubDate', 'guid', 'author', 'dc:format',
  'dc:date', 'dc:creator', 'slash:comments',
]);

/**
 * Parse errors an HTML page may have because record data holds odd characters (they only say "this
 * character is odd", the tree is unaffected). Any other parse error means the markup itself broke.
 */
const CHARACTER_LEVEL_HTML_ERRORS = new Set([
  'control-character-in-input-stream', 'noncharacter-in-input-stream', 'surrogate-in-input-stream', 'unexpected-null-character',
]);

// Characters XML 1.0 allows (the Char production); checked on the raw text, since JS parsers are lenient.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

// ---------------------------------------------------------------------------------------------------------
// A raw HTTP/1.1 client: sends exactly the given bytes, reads until the server closes.

interface RawResponse {
  readonly status: number;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: string;
}

function header(response: RawResponse, name: string): string | undefined {
  return response.headers.find(([key]) => key === name)?.[1];
}

function headersNamed(response: RawResponse, name: string): string[] {
  return response.headers.filter(([key]) => key === name).map(([, value]) => value);
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

function parseRawResponse(data: Buffer): RawResponse {
  const headEnd = data.indexOf('\r\n\r\n');
  if (headEnd < 0) throw new Error(`no complete response head in ${JSON.stringify(data.subarray(0, 200).toString('latin1'))}`);
  const [statusLine = '', ...lines] = data.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) throw new Error(`bad status line ${JSON.stringify(statusLine)}`);
  const headers = lines.map((line): [string, string] => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
  });
  let body = data.subarray(headEnd + 4);
  if (headers.some(([k, v]) => k === 'transfer-encoding' && /chunked/i.test(v))) body = dechunk(body);
  const length = headers.find(([k]) => k === 'content-length')?.[1];
  if (length !== undefined) body = body.subarray(0, Number(length));
  return { status, headers, body: body.toString('utf8') };
}

function sendRaw(port: number, request: Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const finish = () => {
      try { resolve(parseRawResponse(Buffer.concat(chunks))); } catch (error) { reject(error as Error); }
    };
    socket.setTimeout(20_000, () => { socket.destroy(); reject(new Error('no answer within 20 s')); });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', finish);
    // Node may reset a connection it refused after writing its 400; what arrived before still counts.
    socket.on('error', (error) => (chunks.length > 0 ? finish() : reject(error)));
    // write, not end: a half-closed connection may be dropped by the server before it answers.
    socket.write(request);
  });
}

/**
 * A GET request. `target` and `extraHeaders` are "byte strings": each character is one byte (latin1),
 * so a test can put any byte, valid UTF-8 or not, on the wire.
 */
function rawGet(target: string, extraHeaders: string[] = [], method = 'GET'): Buffer {
  // `Connection: close` goes last: a header value that ends the head early (CR LF CR LF, then a request
  // line) leaves what follows it a request of its own. Had the head already said `Connection: close`, those
  // bytes would be data after it, which Node refuses by destroying the socket mid-answer.
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', ...extraHeaders, 'Connection: close', '', ''];
  return Buffer.from(lines.join('\r\n'), 'latin1');
}

/** Text as UTF-8 bytes, written one byte per character (for rawGet). */
const utf8Bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

/** Bytes Node's HTTP parser refuses in a request line or header value (and a reason it may answer 4xx). */
const PARSER_REFUSABLE = /[\x00-\x08\x0A-\x1F\x7F-\xFF]/;

// ---------------------------------------------------------------------------------------------------------
// The hostile values. `query` is how the value is written in the query string (percent-encoded or raw
// bytes), `cookie` how it is written in a Cookie header (cookies are not percent-decoded by anyone).

interface Nasty {
  readonly label: string;
  readonly query: string;
  readonly cookie: string;
}

const KB100 = 100 * 1024;
const same = (label: string, value: string): Nasty => ({ label, query: value, cookie: value });

const NASTY: readonly Nasty[] = [
  same('empty', ''),
  { label: 'blank', query: '+%20%09', cookie: '   ' },
  same('100 KB of ASCII', 'a'.repeat(KB100)),
  { label: '100 KB of <script>', query: '%3Cscript%3Ealert(1)%3C%2Fscript%3E'.repeat(KB100 / 25), cookie: '<script>alert(1)</script>'.repeat(KB100 / 25) },
  { label: '100 KB of multibyte UTF-8', query: '%E2%82%AC%F0%9F%93%9A'.repeat(KB100 / 7), cookie: utf8Bytes('€📚').repeat(KB100 / 7) },
  { label: 'invalid UTF-8 (FF FE FD)', query: '%FF%FE%FD', cookie: '\xFF\xFE\xFD' },
  { label: 'truncated UTF-8 sequence', query: 'x%E2%82', cookie: 'x\xE2\x82' },
  { label: 'overlong UTF-8 slash', query: '%C0%AF', cookie: '\xC0\xAF' },
  { label: 'UTF-8-encoded surrogate', query: '%ED%A0%80', cookie: '\xED\xA0\x80' },
  same('raw non-ASCII byte', 'caf\xE9'),
  same('lone percent', '%'),
  same('percent with non-hex digits', '%G1%zz%'),
  same('truncated percent escape', '%E0%A4%A'),
  same('double-encoded <script>', '%253Cscript%253E'),
  same('literal %s%n%x', '%s%n%x'),
  { label: 'NUL', query: '%00', cookie: '\x00' },
  { label: 'NUL inside', query: 'a%00b', cookie: 'a%00b' },
  { label: 'C0 controls and DEL', query: '%01%02%07%08%0B%0C%1B%7F', cookie: '\x01\x07\x1B\x7F' },
  { label: 'tab inside', query: 'a%09b', cookie: 'a\tb' },
  { label: 'CR LF Set-Cookie injection', query: 'en%0D%0ASet-Cookie:%20evil=1', cookie: 'en\r\nSet-Cookie: evil=1' },
  { label: 'LF header injection', query: 'en%0AX-Injected:%201', cookie: 'en\nX-Injected: 1' },
  { label: 'CR header injection', query: 'en%0DX-Injected:%201', cookie: 'en\rX-Injected: 1' },
  { label: 'encoded CR LF kept literal', query: '%250D%250ASet-Cookie:%2520evil=1', cookie: '%0D%0ASet-Cookie:%20evil=1' },
  { label: '<script>', query: '%3Cscript%3Ealert(1)%3C%2Fscript%3E', cookie: '<script>alert(1)</script>' },
  { label: 'raw <script> in the URL', query: '<script>alert(1)</script>', cookie: '<script>alert(1)</script>' },
  { label: 'attribute breakout', query: '%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E', cookie: '"><img src=x onerror=alert(1)>' },
  { label: 'single-quote breakout', query: "'%20onmouseover%3D'alert(1)", cookie: "' onmouseover='alert(1)" },
  { label: 'XML metacharacters', query: '%26amp%3B%26lt%3B%5D%5D%3E%3C!%5BCDATA%5Bx%5D%5D%3E', cookie: '&amp;&lt;]]><![CDATA[x]]>' },
  { label: 'DOCTYPE with external entity', query: '%3C!DOCTYPE%20x%20%5B%3C!ENTITY%20e%20SYSTEM%20%22file%3A%2F%2F%2Fetc%2Fpasswd%22%3E%5D%3E%26e%3B', cookie: '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>&e;' },
  { label: 'processing instruction', query: '%3C%3Fxml-stylesheet%20href%3D%22evil.xsl%22%3F%3E', cookie: '<?xml-stylesheet href="evil.xsl"?>' },
  { label: 'character references to forbidden characters', query: '%26%230%3B%26%23x1F%3B%26%23xFFFE%3B', cookie: '&#0;&#x1F;&#xFFFE;' },
  { label: 'encoded path traversal', query: '..%2F..%2F..%2Fetc%2Fpasswd', cookie: '..%2F..%2Fetc%2Fpasswd' },
  same('raw path traversal', '../../../etc/passwd'),
  { label: 'backslashes and encoded slashes', query: '%2F%2F%5C%5C..%5C', cookie: '//\\\\..\\' },
  same('dot-dot', '..'),
  same('dot', '.'),
  { label: 'javascript: URL', query: 'javascript%3Aalert(1)', cookie: 'javascript:alert(1)' },
  same('huge number', '99999999999999999999999999999'),
  same('2^53 + 1', '9007199254740993'),
  same('exponent', '1e308'),
  same('Infinity', 'Infinity'),
  same('NaN', 'NaN'),
  same('negative', '-1'),
  same('huge negative', '-99999999999999999999'),
  same('minus zero', '-0'),
  same('hexadecimal', '0x10'),
  { label: 'padded with a plus', query: '%20%2B2%20', cookie: ' +2 ' },
  same('decimal', '2.5'),
  { label: 'bidi override, BOM, zero-width space', query: '%E2%80%AE%EF%BB%BF%E2%80%8Bx', cookie: utf8Bytes('\u202E\uFEFF\u200Bx') },
  { label: 'astral and combining characters', query: '%F0%9F%93%9A%CC%81%E1%84%80%E1%85%A1', cookie: utf8Bytes('📚\u0301\u1100\u1161') },
  { label: 'noncharacters U+FFFE U+FFFF', query: '%EF%BF%BE%EF%BF%BF', cookie: utf8Bytes('\uFFFE\uFFFF') },
  same('__proto__', '__proto__'),
  same('constructor', 'constructor'),
  same('toString', 'toString'),
  { label: 'supported code with junk', query: 'pt-br%00', cookie: 'pt-br%00' },
  { label: 'supported code, upper case with CR LF', query: 'PT-BR%0D%0A', cookie: 'PT-BR' },
  same('language tag with weights', 'es;q=1'),
  { label: 'SQL', query: "'%20OR%201%3D1--%20", cookie: "' OR 1=1-- " },
  { label: 'a fragment', query: 'a#b', cookie: 'a#b' },
];

// ---------------------------------------------------------------------------------------------------------
// The host: a real record (a work of two versions), plus one record for every hostile id.

// A small work (two versions) keeps each of the ~2000 answers cheap to render and to check.
const BASE_ID = 'usp:tese-2019-0412';
const BASE_ID_QUERY = encodeURIComponent(BASE_ID);
const GOOD: Record<string, string> = {
  id: BASE_ID_QUERY, view: 'rss', page: '2', limit: '50', sort: 'last_indexed+desc', lng: 'es', search: 'versions',
  language: 'es', ui: 'mobile', VUFIND_SESSION: '0123456789abcdef0123456789abcdef',
};
const QUERY_PARAMETERS = ['id', 'view', 'page', 'limit', 'sort', 'lng', 'search'] as const;
const COOKIES = ['language', 'ui', 'VUFIND_SESSION'] as const;
/** Ids of records that do not exist start with this, so those requests must end in the 404 page. */
const MISSING_PREFIX = 'zz-missing-';

/** The query string the plugin will see for a request target (Koa parses it with URLSearchParams). */
function queryOf(target: string): URLSearchParams {
  const beforeFragment = target.split('#')[0] ?? '';
  const question = beforeFragment.indexOf('?');
  return new URLSearchParams(question < 0 ? '' : beforeFragment.slice(question + 1));
}

/** Every id a hostile value decodes to, so that each gets a record and its page and feed can be checked. */
let hostileIdList: string[] | undefined;
function hostileIds(): string[] {
  if (hostileIdList !== undefined) return hostileIdList;
  const ids = new Set<string>();
  for (const nasty of NASTY) {
    if (PARSER_REFUSABLE.test(nasty.query)) continue;
    const id = queryOf(`/?id=${nasty.query}`).get('id');
    if (id !== null && id.trim() !== '') ids.add(id);
  }
  hostileIdList = [...ids];
  return hostileIdList;
}

/** Ids of every record the shared host holds. */
let knownIdSet: Set<string> | undefined;
function knownIds(): Set<string> {
  knownIdSet ??= new Set([
    ...fixture('thesis-in-two-repositories').map((doc) => String(doc.id)),
    ...hostileIds(),
  ]);
  return knownIdSet;
}

interface Listening {
  readonly port: number;
  readonly server: Server;
  readonly app: Koa;
}

/** A listening host and what its plugin logged. */
type LoggingHost = Listening & { readonly logged: LoggedLine[] };

async function listen(app: Koa, maxHeaderSize?: number): Promise<Listening> {
  const server = createServer(maxHeaderSize === undefined ? {} : { maxHeaderSize }, app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, server, app };
}

let host: Promise<LoggingHost> | undefined;
/** One host for the whole file (loading ~100 records and compiling templates once keeps the matrix fast). */
function sharedHost(): Promise<LoggingHost> {
  host ??= (async () => {
    // Each hostile record is a work of its own, so one value that breaks a feed cannot hide what the others do.
    const hostileRecords = hostileIds().map((id, i) => ({
      id, title: id, author: id, format: ['Book', id], publishDate: '2020', work_keys_str_mv: [`hostile ${i}`],
    }));
    const index = await openLoadedIndex([...fixture('thesis-in-two-repositories'), ...hostileRecords]);
    if ((await index.count()) !== knownIds().size) throw new Error('some records were not loaded');
    const { app, logged } = hostFor(index);
    return { ...await listen(app, 4 * 1024 * 1024), logged };
  })();
  return host;
}

// Every test here shares the host: what they provoked together is checked once they have all run.
test.after('hostile input is logged as warnings for 4xx answers, never as an error', async (t) => {
  if (host === undefined) return;
  const { logged } = await host;
  t.deepEqual(logged.filter((line) => line.level === 'error').map(describeLogged).slice(0, 10), []);
  const statuses = new Set(logged.map((line) => line.details?.status));
  t.true([...statuses].every((status) => typeof status === 'number' && status >= 400 && status < 500), [...statuses].join(', '));
  t.true(logged.some((line) => line.details?.code === 'RECORD_NOT_FOUND'), 'the matrix asks for missing records');
});

test.after.always(async () => {
  if (host !== undefined) (await host).server.close();
});

// ---------------------------------------------------------------------------------------------------------
// Checking one answer

interface Case {
  /** What the case is, for messages. */
  readonly name: string;
  readonly target: string;
  readonly headers: string[];
  readonly method?: string;
  /** Values the request carries that the answer must never contain unescaped. */
  readonly inputs: readonly string[];
  /** The status the plugin must give when the request reaches it. */
  readonly expectedStatus: number;
  /** When the page or feed shows the requested record, its id (checked to round-trip). */
  readonly echoedId?: string;
}

const htmlAttributeText = (text: string) => text.replace(/\r\n?/g, '\n').replaceAll('\0', '\uFFFD');
const xmlText = (text: string) => text.replace(/[\0-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/g, '\uFFFD');

function decodedRecordIdOf(href: string | undefined): string | undefined {
  const match = href === undefined ? null : /\/Record\/([^?#]*)$/.exec(href);
  return match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
}

/** Problems with one answer, as lines; empty when the answer is fine. */
function problemsWith(c: Case, response: RawResponse): string[] {
  const problems: string[] = [];
  const fail = (message: string) => problems.push(`${c.name}: ${message}`);
  const contentType = header(response, 'content-type');

  if (response.status >= 500) fail(`status ${response.status}`);
  if (headersNamed(response, 'location').length > 0) fail(`redirects to ${headersNamed(response, 'location').join(', ')}`);
  for (const [name, value] of response.headers) {
    if (/injected|evil/i.test(name) || /injected|evil/i.test(value)) fail(`injected header ${name}: ${value}`);
  }
  for (const line of headersNamed(response, 'set-cookie')) {
    const match = /^([^=;]+)=([^;]*)((?:;.*)?)$/.exec(line);
    const [name = '', value = '', attributes = ''] = match?.slice(1) ?? [];
    const allowed = ALLOWED_COOKIE_VALUES[name];
    if (allowed === undefined || !allowed.test(value)) fail(`sets cookie ${JSON.stringify(line.slice(0, 200))}`);
    else if (attributes.toLowerCase() !== '; path=/; samesite=lax; httponly') fail(`cookie attributes ${attributes}`);
  }

  if (contentType === undefined) {
    // Node's own refusal (the plugin always sends a type): only for bytes an HTTP parser may reject.
    const sent = [c.target, ...c.headers].join('\n');
    if (!(response.status >= 400 && response.status < 500)) fail(`untyped answer with status ${response.status}`);
    else if (!PARSER_REFUSABLE.test(sent)) fail(`refused with ${response.status} although the request holds no byte a parser may refuse`);
    return problems;
  }
  if (response.status !== c.expectedStatus) fail(`status ${response.status}, expected ${c.expectedStatus}`);
  if (c.method === 'HEAD') return problems;

  // No input containing markup comes back verbatim (escaped text differs from its source).
  for (const input of c.inputs) {
    if (input.includes('<') && response.body.includes(input)) fail(`echoes ${JSON.stringify(input.slice(0, 60))} unescaped`);
  }

  if (/^text\/xml/.test(contentType)) {
    if (headersNamed(response, 'set-cookie').length > 0) fail('a feed sets cookies');
    if (NOT_XML_CHAR.test(response.body)) fail(`feed holds a character XML 1.0 forbids: U+${response.body.match(NOT_XML_CHAR)?.[0]?.codePointAt(0)?.toString(16)}`);
    // JS parsers accept references to forbidden characters (&#0;); XML 1.0 (and libxml2, browsers) do not.
    const forbidden = new Set<string>();
    for (const [reference, hex, decimal] of response.body.matchAll(/&#(?:x([0-9A-Fa-f]+)|([0-9]+));/g)) {
      const codePoint = hex !== undefined ? Number.parseInt(hex, 16) : Number(decimal);
      if (codePoint > 0x10FFFF || NOT_XML_CHAR.test(String.fromCodePoint(codePoint))) forbidden.add(reference);
    }
    if (forbidden.size > 0) fail(`feed refers to characters XML 1.0 forbids: ${[...forbidden].join(' ')}`);
    let document: Document;
    try {
      document = parseFeed(response.body);
    } catch (error) {
      fail(`feed does not parse: ${(error as Error).message}`);
      return problems;
    }
    for (let node = document.firstChild; node !== null; node = node.nextSibling) {
      if (node.nodeType === 10) fail('feed has a DOCTYPE');
      if (node.nodeType === 7 && node.nodeName !== 'xml-stylesheet' && node.nodeName !== 'xml') fail(`feed has processing instruction ${node.nodeName}`);
    }
    const elements = document.getElementsByTagName('*');
    for (let i = 0; i < elements.length; i += 1) {
      const name = (elements.item(i) as Element).tagName;
      if (!FEED_ELEMENTS.has(name)) fail(`feed has a <${name}> element`);
    }
    if (itemsOf(document).length > 50) fail('more than 50 items');
    const channel = channelOf(document);
    const lng = /[?&]lng=([^&]*)/.exec(textOf(channel, 'link') ?? '')?.[1] ?? '';
    const title = textOf(channel, 'title') ?? '';
    if (RESULTS_FOR_VERSIONS[lng] === undefined) fail(`feed language ${JSON.stringify(lng)}`);
    if (c.echoedId !== undefined) {
      const expected = `${RESULTS_FOR_VERSIONS[lng]} - ${xmlText(c.echoedId)}`;
      if (title !== expected) fail(`feed title ${JSON.stringify(title.slice(0, 80))} is not ${JSON.stringify(expected.slice(0, 80))}`);
      const query = childElements(channel).find((e) => e.tagName === 'opensearch:Query');
      if (query?.getAttribute('searchTerms') !== xmlText(c.echoedId)) fail('searchTerms does not round-trip the id');
      const listed = itemsOf(document).map((item) => decodedRecordIdOf(textOf(item, 'link')));
      if (!listed.includes(c.echoedId)) fail('the requested record is not among the items');
    }
    // Every item links to a record that exists: ids in links are encoded so that they decode back.
    for (const item of itemsOf(document)) {
      const id = decodedRecordIdOf(textOf(item, 'link'));
      if (id === undefined || !knownIds().has(id)) fail(`item link ${JSON.stringify(textOf(item, 'link')?.slice(0, 80))} names no record`);
    }
    return problems;
  }

  if (!/^text\/html; charset=utf-8$/i.test(contentType)) {
    fail(`unexpected content type ${contentType}`);
    return problems;
  }
  const parseErrors: string[] = [];
  parseHtml(response.body, { onParseError: (error) => void parseErrors.push(error.code) });
  const structural = parseErrors.filter((code) => !CHARACTER_LEVEL_HTML_ERRORS.has(code));
  if (structural.length > 0) fail(`HTML parse errors ${[...new Set(structural)].join(', ')}`);
  const $ = cheerio.load(response.body);
  const lang = $('html').attr('lang') ?? '';
  if (ERROR_LINES[lang] === undefined) fail(`page language ${JSON.stringify(lang)}`);
  // The one form is the page's sort selector (docs/page.md): a GET of the page's own address, nowhere else.
  if ($('script, iframe, object, embed, img, svg, style, base, form:not(.sort-form[method="get"]:not([action]))').length > 0) fail('page has active or unexpected elements');
  if ($('form').length > 1) fail('page has more than the sort form');
  $('*').each((_, element) => {
    for (const [name, value] of Object.entries((element as { attribs?: Record<string, string> }).attribs ?? {})) {
      if (/^on/i.test(name)) fail(`attribute ${name} on <${(element as { name?: string }).name}>`);
      if (/^(href|src)$/i.test(name) && /^\s*(javascript|data|vbscript):/i.test(value)) fail(`${name}=${value.slice(0, 40)}`);
    }
  });
  if (response.status >= 400) {
    // The three lines; the advice before them (what to do) is the errors test's business.
    const lines = $('main').find('h1, p').not('.error-page__advice').map((_, e) => $(e).text().trim()).get();
    if (JSON.stringify(lines) !== JSON.stringify(ERROR_LINES[lang] ?? [])) fail(`error page lines ${JSON.stringify(lines)}`);
    if (header(response, 'cache-control') !== 'no-store') fail('error page is cacheable');
  } else {
    if ($('h1').length !== 1) fail('page has no single heading');
    if (c.echoedId !== undefined) {
      const title = $('link[rel="alternate"][type="application/rss+xml"]').attr('title');
      const expected = `${RESULTS_FOR_VERSIONS[lang]} - ${htmlAttributeText(c.echoedId)}`;
      if (title !== expected) fail(`feed link title ${JSON.stringify(title?.slice(0, 80))} is not ${JSON.stringify(expected.slice(0, 80))}`);
      const marked = $('a[aria-current="true"]').map((_, a) => decodedRecordIdOf($(a).attr('href'))).get();
      if (JSON.stringify(marked) !== JSON.stringify([c.echoedId])) fail(`marked as the requested record: ${JSON.stringify(marked).slice(0, 80)}`);
    }
    $(`a[href^="${BASE_URL}/Record/"]`).each((_, a) => {
      const id = decodedRecordIdOf($(a).attr('href'));
      if (id === undefined || !knownIds().has(id)) fail(`record link ${JSON.stringify($(a).attr('href')?.slice(0, 80))} names no record`);
    });
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------
// Building the matrix

type Target = (typeof QUERY_PARAMETERS)[number] | 'id of a missing record' | (typeof COOKIES)[number] | 'accept-language';

const basePath = (params: string) => `/Search/Versions?${params}`;

/** The cases for one query parameter: each hostile value alone, then in repeated and odd shapes. */
function queryCases(target: Target, views: readonly string[]): Case[] {
  const name = target === 'id of a missing record' ? 'id' : target;
  const cases: Case[] = [];
  const others = (view: string) => [
    ...(name === 'id' ? [] : [`id=${BASE_ID_QUERY}`]),
    ...(name === 'search' ? [] : ['search=versions']),
    ...(name === 'view' || view === '' ? [] : [`view=${view}`]),
  ];
  const add = (label: string, parts: string[], view: string, input: string) => {
    const target2 = basePath([...others(view), ...parts].join('&'));
    const query = queryOf(target2);
    const id = query.get('id');
    const blankId = id === null || id.trim() === '';
    const missing = !blankId && (id.startsWith(MISSING_PREFIX) || (id !== BASE_ID && !hostileIds().includes(id)));
    cases.push({
      name: `${name} ${label}${view ? ` (view=${view})` : ''}`,
      target: target2,
      headers: [],
      inputs: [input, ...query.getAll(name)],
      expectedStatus: blankId ? 400 : missing ? 404 : 200,
      ...(!blankId && !missing && name === 'id' ? { echoedId: id } : {}),
    });
  };
  const value = (v: string) => (target === 'id of a missing record' ? `${MISSING_PREFIX}${v}` : v);
  for (const view of views) {
    for (const nasty of NASTY) add(`= ${nasty.label}`, [`${name}=${value(nasty.query)}`], view, nasty.query);
    // Repeated: the first value counts, so a hostile second value is ignored and a hostile first one is used.
    for (const nasty of NASTY.filter((n) => /script|breakout|CR LF|percent|NUL$|100 KB of ASCII|huge number/.test(n.label))) {
      add(`repeated, hostile second (${nasty.label})`, [`${name}=${value(GOOD[name] ?? '')}`, `${name}=${value(nasty.query)}`], view, nasty.query);
      add(`repeated, hostile first (${nasty.label})`, [`${name}=${value(nasty.query)}`, `${name}=${value(GOOD[name] ?? '')}`], view, nasty.query);
    }
    add('repeated 1000 times', Array.from({ length: 1000 }, (_, i) => `${name}=${value(String(i))}`), view, '');
    add('without "="', [name], view, '');
    add('with brackets', [`${name}[]=${value('x')}`, `${name}[0]=${value('y')}`], view, '');
    add('as 1000 empty keys', [`${name}=${value('1')}`, ...Array.from({ length: 1000 }, () => '=')], view, '');
  }
  return cases;
}

/** The cases for one cookie (or the Accept-Language header): each hostile value, then odd shapes. */
function headerCases(target: Target, views: readonly string[]): Case[] {
  const cases: Case[] = [];
  const forView = (view: string) => basePath(`id=${BASE_ID_QUERY}&search=versions${view ? `&view=${view}` : ''}`);
  const add = (label: string, headerLine: string, view: string, input: string) => cases.push({
    name: `${target} ${label}${view ? ` (view=${view})` : ''}`,
    target: forView(view),
    headers: [headerLine],
    inputs: [input],
    expectedStatus: 200,
  });
  const line = (value: string) => (target === 'accept-language' ? `Accept-Language: ${value}` : `Cookie: ${value}`);
  for (const view of views) {
    for (const nasty of NASTY) {
      const value = target === 'accept-language' ? nasty.cookie : `${target}=${nasty.cookie}`;
      add(`= ${nasty.label}`, line(value), view, nasty.cookie);
    }
    if (target === 'accept-language') continue;
    const good = `${target}=${GOOD[target]}`;
    for (const nasty of NASTY.filter((n) => /script|breakout|CR LF|NUL$|100 KB of ASCII/.test(n.label))) {
      add(`repeated, hostile second (${nasty.label})`, line(`${good}; ${target}=${nasty.cookie}`), view, nasty.cookie);
      add(`repeated, hostile first (${nasty.label})`, line(`${target}=${nasty.cookie}; ${good}`), view, nasty.cookie);
    }
    add('without "="', line(target), view, '');
    add('quoted', line(`${target}="${GOOD[target]}"`), view, '');
    add('with attributes', line(`${target}=${GOOD[target]}; Path=/; HttpOnly; Domain=evil.example`), view, '');
    add('as 500 cookies', line(Array.from({ length: 500 }, (_, i) => `${target}=${i}`).join('; ')), view, '');
  }
  return cases;
}

/** Answers by kind, for the test log: `200 text/html`, `404 text/html`, `400 (Node)` for parser refusals. */
type StatusMix = Record<string, number>;

async function runCases(cases: readonly Case[], mix: StatusMix = {}, concurrency = 8): Promise<string[]> {
  const { port } = await sharedHost();
  const problems: string[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < cases.length; i = next++) {
      const c = cases[i]!;
      try {
        const response = await sendRaw(port, rawGet(c.target, c.headers, c.method));
        const kind = `${response.status} ${header(response, 'content-type')?.split(';')[0] ?? '(Node)'}`;
        mix[kind] = (mix[kind] ?? 0) + 1;
        problems.push(...problemsWith(c, response));
      } catch (error) {
        problems.push(`${c.name}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return problems;
}

const TARGETS: ReadonlyArray<[Target, Case[]]> = [
  ...QUERY_PARAMETERS.map((p): [Target, Case[]] => [p, queryCases(p, p === 'view' ? [''] : ['', 'rss'])]),
  ['id of a missing record', queryCases('id of a missing record', ['', 'rss'])],
  ...COOKIES.map((c): [Target, Case[]] => [c, headerCases(c, ['', 'rss'])]),
  ['accept-language', headerCases('accept-language', ['', 'rss'])],
];

const MATRIX_SIZE = TARGETS.reduce((sum, [, cases]) => sum + cases.length, 0);

test(`the matrix covers every parameter and cookie (${MATRIX_SIZE} requests)`, (t) => {
  t.deepEqual(TARGETS.map(([target]) => target), [...QUERY_PARAMETERS, 'id of a missing record', ...COOKIES, 'accept-language']);
  t.true(MATRIX_SIZE > 1000);
});

for (const [target, cases] of TARGETS) {
  test(`bad input in ${target}: ${cases.length} requests, each a page, a feed or a localised 4xx error page`, async (t) => {
    const mix: StatusMix = {};
    const problems = await runCases(cases, mix);
    note(t, Object.entries(mix).sort().map(([kind, count]) => `${kind}: ${count}`).join(', '));
    t.deepEqual(problems.slice(0, 40), [], `${problems.length} problem(s)`);
  });
}

test('HEAD requests with hostile values get the same statuses and no body', async (t) => {
  const cases = TARGETS.flatMap(([, all]) => all.filter((_, i) => i % 7 === 0)).map((c) => ({ ...c, method: 'HEAD' }));
  const problems = await runCases(cases);
  t.deepEqual(problems, []);
});

// ---------------------------------------------------------------------------------------------------------
// Path tricks: the plugin serves its own files only, and other paths are left to the host (404).

test('path tricks reach no file outside the themes and never fail', async (t) => {
  const { port } = await sharedHost();
  const paths = [
    '/Search/Versions/../Versions?id=usp%3Atese-2019-0412', '/Search/./Versions?id=usp%3Atese-2019-0412', '/Search%2FVersions?id=usp%3Atese-2019-0412',
    '/search/versions?id=usp%3Atese-2019-0412', '//Search/Versions?id=usp%3Atese-2019-0412', '/Search/Versions/?id=usp%3Atese-2019-0412',
    '/Search/Versions;x=1?id=usp%3Atese-2019-0412', '/Search/Versions%00?id=usp%3Atese-2019-0412', '/Search/Versions%3Fid=usp%3Atese-2019-0412',
    '/Search/Versions%?id=usp%3Atese-2019-0412', '/Search/Versions%E0%A4%A?id=usp%3Atese-2019-0412',
    '/themes/standard/assets/..%2F..%2Fpackage.json', '/themes/standard/assets/%2e%2e%2f%2e%2e%2fpackage.json',
    '/themes/standard/assets/..%5C..%5Cpackage.json', '/themes/standard/assets/../../package.json',
    '/themes/..%2F..%2F/assets/package.json', '/themes/%2e%2e/assets/theme.json', '/themes/../assets/package.json',
    '/themes/standard/assets/theme.json', '/themes/standard/assets/..', '/themes/standard/assets/.',
    '/themes/standard/assets/theme.css%00.png', '/themes/standard/assets/theme.css/', '/themes/standard/assets/%E0%A4%A',
    '/themes/standard/assets/%', '/themes/__proto__/assets/theme.css', '/themes/constructor/assets/theme.css',
    '/themes/root/assets/xsl/..%2F..%2F..%2Fpackage.json', '/themes/root/assets/xsl/rss.xsl%00', '/themes/root/assets/xsl/../../../package.json',
    `/themes/standard/assets/${'a'.repeat(KB100)}`, '/themes/standard/assets/..%252F..%252Fpackage.json',
  ];
  for (const path of paths) {
    const response = await sendRaw(port, rawGet(path));
    t.true(response.status < 500, `${path.slice(0, 80)}: ${response.status}`);
    t.false(/"name": "koa-catalog-versions"|"extends"|root:x:0:0|"devDependencies"/.test(response.body), `${path.slice(0, 80)} leaks a file`);
    const type = header(response, 'content-type') ?? '';
    if (response.status === 200 && path.startsWith('/themes/')) t.regex(type, /^text\/(css|xsl)/, path);
  }
});

// ---------------------------------------------------------------------------------------------------------
// Header injection at the byte level, where HTTP clients cannot go.

test('CR and LF inside a Cookie header never become response headers', async (t) => {
  const { port } = await sharedHost();
  const attempts = [
    'Cookie: language=en\r\nSet-Cookie: evil=1',
    'Cookie: language=en\r\nX-Injected: 1',
    'Cookie: ui=mobile\rX-Injected: 1',
    'Cookie: ui=mobile\nX-Injected: 1',
    'Cookie: language=en\r\n\r\nGET /evil HTTP/1.1',
    'Cookie: VUFIND_SESSION=0123456789abcdef0123456789abcdef\r\nLocation: http://evil.example/',
    'Cookie: language=\r\n Set-Cookie: evil=1',
  ];
  for (const attempt of attempts) {
    const response = await sendRaw(port, rawGet(basePath(`id=${BASE_ID_QUERY}&search=versions`), [attempt]));
    t.true(response.status < 500, attempt);
    const problems = problemsWith({ name: JSON.stringify(attempt), target: basePath(`id=${BASE_ID_QUERY}&search=versions`), headers: [attempt], inputs: [], expectedStatus: 200 }, response);
    t.deepEqual(problems, [], attempt);
  }
});

test('CR and LF in lng or a raw request line never become response headers', async (t) => {
  const { port } = await sharedHost();
  for (const lng of ['es%0D%0ASet-Cookie:%20evil=1', 'es\r\nSet-Cookie: evil=1', 'es\rX-Injected: 1', 'es%0d%0aX-Injected:%201']) {
    const target = basePath(`id=${BASE_ID_QUERY}&search=versions&lng=${lng}`);
    const response = await sendRaw(port, rawGet(target));
    t.true(response.status < 500, lng);
    t.deepEqual(problemsWith({ name: JSON.stringify(lng), target, headers: [], inputs: [], expectedStatus: 200 }, response), [], lng);
  }
});

test('the language, ui and session cookies are validated, never copied', async (t) => {
  const { port } = await sharedHost();
  const cases: Array<[string, Record<string, RegExp>]> = [
    ['language=es%0D%0Aevil; ui=mobile%0D%0Aevil; VUFIND_SESSION=%0D%0Aevil', { language: /^en$/, ui: /^standard$/, VUFIND_SESSION: /^[0-9a-f]{32}$/ }],
    ['language=PT-BR; ui=mobile', { language: /^pt-br$/ }],
    ['language=<b>; ui=<b>; VUFIND_SESSION=<b>', { language: /^en$/, ui: /^standard$/, VUFIND_SESSION: /^[0-9a-f]{32}$/ }],
    [`VUFIND_SESSION=${'a'.repeat(129)}`, { VUFIND_SESSION: /^[0-9a-f]{32}$/ }],
  ];
  for (const [cookie, expected] of cases) {
    const response = await sendRaw(port, rawGet(basePath(`id=${BASE_ID_QUERY}&search=versions`), [`Cookie: ${cookie}`]));
    t.is(response.status, 200, cookie);
    const set = Object.fromEntries(headersNamed(response, 'set-cookie').map((line) => {
      const [pair = ''] = line.split(';');
      const equals = pair.indexOf('=');
      return [pair.slice(0, equals), pair.slice(equals + 1)];
    }));
    for (const [name, pattern] of Object.entries(expected)) t.regex(set[name] ?? '(not set)', pattern, `${cookie} → ${name}`);
  }
});

// ---------------------------------------------------------------------------------------------------------
// Limits outside the plugin, and input the plugin takes from the Host header when no baseUrl is set.

test("with Node's default header limit, a 100 KB value is refused by Node with 431, not a failure", async (t) => {
  const { app } = await sharedHost();
  const small = await listen(app);
  try {
    const long = await sendRaw(small.port, rawGet(basePath(`id=${'a'.repeat(KB100)}`)));
    t.is(long.status, 431);
    const cookie = await sendRaw(small.port, rawGet(basePath(`id=${BASE_ID_QUERY}`), [`Cookie: language=${'a'.repeat(KB100)}`]));
    t.is(cookie.status, 431);
  } finally {
    small.server.close();
  }
});

/** A host app without `baseUrl`: the plugin then builds its links from the request's own address. */
async function hostWithoutBaseUrl(): Promise<LoggingHost & { close: () => Promise<void> }> {
  const index = await openLoadedIndex(fixture('thesis-in-two-repositories'));
  const { app, logged } = hostFor(index, { baseUrl: undefined });
  const listening = await listen(app);
  return { ...listening, logged, close: async () => { listening.server.close(); await index.close(); } };
}

const requestWithHeaders = (target: string, headers: string[]) =>
  Buffer.from([`GET ${target} HTTP/1.1`, ...headers, 'Connection: close', '', ''].join('\r\n'), 'latin1');

test('without a baseUrl, links use the Host the request came in on', async (t) => {
  const listening = await hostWithoutBaseUrl();
  try {
    const target = basePath('id=usp%3Atese-2019-0412&search=versions');
    const response = await sendRaw(listening.port, requestWithHeaders(target, ['Host: catalog.example.org']));
    t.is(response.status, 200);
    const $ = cheerio.load(response.body);
    t.is($('link[rel="alternate"]').attr('href')?.startsWith('http://catalog.example.org/Search/Versions?'), true);
    const recordLinks = $('ol.versions h2 a').toArray().map((a) => $(a).attr('href') ?? '');
    t.is(recordLinks.length, 2);
    t.true(recordLinks.every((href) => href.startsWith('http://catalog.example.org/Record/')), recordLinks.join(' '));
  } finally {
    await listening.close();
  }
});

test('without a baseUrl, an Origin header never decides where links, stylesheets and the CSP point', async (t) => {
  const listening = await hostWithoutBaseUrl();
  try {
    for (const view of ['', '&view=rss']) {
      for (const target of [basePath(`id=usp%3Atese-2019-0412&search=versions${view}`), basePath(`id=nope${view}`)]) {
        const response = await sendRaw(listening.port, requestWithHeaders(target, ['Host: catalog.example.org', 'Origin: https://evil.example']));
        t.true(response.status < 500, `${target}: ${response.status}`);
        t.false(response.body.includes('evil.example'), `${target}: the body points at the Origin header`);
        t.false((header(response, 'content-security-policy') ?? '').includes('evil.example'), `${target}: the CSP trusts the Origin header`);
      }
    }
    t.deepEqual(listening.logged.map((line) => `${describeLogged(line)} ${String(line.details?.url)}`), ['', '&view=rss'].map((view) =>
      `warn RECORD_NOT_FOUND: Record "nope" does not exist ${basePath(`id=nope${view}`)}`), 'the missing record is logged with its request');
  } finally {
    await listening.close();
  }
});

test('without a baseUrl, a hostile Host header is escaped wherever the origin appears', async (t) => {
  const listening = await hostWithoutBaseUrl();
  try {
    for (const hostValue of ['"><script>alert(1)</script>', 'evil.example/<x>', 'a&b', "x' onload='alert(1)", 'h'.repeat(4000)]) {
      for (const view of ['', '&view=rss']) {
        const target = basePath(`id=usp%3Atese-2019-0412&search=versions${view}`);
        const response = await sendRaw(listening.port, requestWithHeaders(target, [`Host: ${hostValue}`]));
        const problems = problemsWith({ name: `Host: ${hostValue.slice(0, 40)}${view}`, target, headers: [], inputs: [hostValue], expectedStatus: 200 }, response);
        t.deepEqual(problems, []);
      }
    }
  } finally {
    await listening.close();
  }
});
