/**
 * The plugin's part of answers built afresh beyond the index, for two builds side by side in one process:
 * each build's versionsAnswers.ts (listVersions, the ETag, the feed's model, writer and bytes, or the
 * page's model and Pug render, the answer cache) and the first sending's body, on the same records and
 * pages, read beforehand from the index file and handed to both by a stand-in index that only gives them
 * back. The bench's mix of records never asked before (as freshAnswers.ts draws it) is asked of both in
 * alternating blocks, and the CPU time of each answer (process.cpuUsage, one thread) is summed by the size
 * of the record's work; both builds' bodies are compared. Without the index, HTTP, Koa and the socket, the
 * share this part has of an answer is measured more closely than the whole server's CPU per answer can
 * show it on a shared machine (indexSideBySide.ts measures the index's part the same way).
 *
 * Usage: node dist/tools/bench/answerSideBySide.js --records N --index <file> --a <package root> --b <package root>
 *          [--requests N] [--block N] [--view rss|html] [--rounds N] [--render-loop N]
 * With --rounds N (N > 1), each block is asked N times of each build, which goes first alternating, and no
 * answer is kept: more figures from one sample, for a difference of a few percent on a busy machine.
 * The page's template render is timed apart too (wall time); with --render-loop N the first pages' models
 * are rendered N times more by each build, alternating: a change to the templates measured on its own.
 * A package root is a checkout with its dist/ built.
 */
import { resolve } from 'node:path';
import { DEFAULT_SEED } from './catalogGenerator.js';
import { cpuBySize, freshRequestMix } from './freshRequestMix.js';
import type { EmbeddedIndex } from '../../src/adapters/sqlite/embeddedIndex.js';
import type { CatalogIndex, VersionsPage } from '../../src/ports.js';
import type { CatalogRecord } from '../../src/record/catalogRecord.js';
import type { AnswerRequest, VersionsAnswers, VersionsAnswersSettings } from '../../src/http/versionsAnswers.js';
import type { ThemeEngine, ThemeEngineOptions } from '../../src/http/themeEngine.js';
import type { LabelCatalogs } from '../../src/i18n/labelCatalogs.js';
import type { ServerTimeZone } from '../../src/feed/rfc822Date.js';
import { option } from './benchCommandLine.js';
import { versionsQueryOf } from '../../src/versions/listVersions.js';

const cpuMicros = (): number => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

const BASE_URL = 'https://catalog.example.org';
const LANGUAGES = ['en', 'pt-br', 'es'];

/** What the stand-in index gives back: each record asked for, and its page, read before the timing. */
type ReadAnswers = Map<string, { record: CatalogRecord; page: VersionsPage }>;

/** An index that answers only from `read`, at no cost of its own; a content version so answers are kept, as a server keeps them. */
function standInIndex(read: () => ReadAnswers): CatalogIndex {
  return {
    getRecord: async (id) => read().get(id)?.record,
    findVersionsOf: async (record) => read().get(record.id)!.page,
    findVersions: async () => {
      throw new Error('the stand-in index answers only findVersionsOf');
    },
    countVersions: async () => new Map(),
    contentVersion: () => '1',
    close: async () => undefined,
  } as CatalogIndex;
}

/** Wall time spent in a build's template render (ThemeEngine.render), apart from the answer's CPU: the page's Pug part alone. */
interface RenderTime {
  micros: number;
  renders: number;
  /** The first pages' render arguments, kept for --render-loop (the same pages rendered again and again by each build). */
  readonly kept: Parameters<ThemeEngine['render']>[];
  readonly render: ThemeEngine['render'];
}

const KEPT_RENDERS = 400;

async function answersOf(root: string, read: () => ReadAnswers, cacheBytes: number): Promise<{ answers: VersionsAnswers; request: (id: string, view: 'rss' | 'html') => AnswerRequest; renderTime: RenderTime }> {
  const load = (path: string) => import(resolve(root, 'dist/src', path));
  const { createVersionsAnswers } = await load('http/versionsAnswers.js') as { createVersionsAnswers(settings: VersionsAnswersSettings): VersionsAnswers };
  const { createThemeEngine } = await load('http/themeEngine.js') as { createThemeEngine(options: ThemeEngineOptions): ThemeEngine };
  const { openLabelCatalogs } = await load('i18n/labelCatalogs.js') as { openLabelCatalogs(directory: string, languages: readonly string[], fallback: string): LabelCatalogs };
  const { processTimeZone } = await load('feed/rfc822Date.js') as { processTimeZone: ServerTimeZone };
  const files = await load('packageFiles.js') as { VIEWS_DIRECTORY: string; THEMES_DIRECTORY: string; LABELS_DIRECTORY: string; GENERATOR: string };
  const labels = openLabelCatalogs(files.LABELS_DIRECTORY, LANGUAGES, 'en');
  const themes = createThemeEngine({ viewsDirectory: files.VIEWS_DIRECTORY, themeDirectories: [files.THEMES_DIRECTORY], themesByUi: { standard: 'standard', mobile: 'mobile' }, cacheTemplates: true });
  const render = themes.render.bind(themes);
  const renderTime: RenderTime = { micros: 0, renders: 0, kept: [], render };
  themes.render = async (template, theme, locals) => {
    if (renderTime.kept.length < KEPT_RENDERS) renderTime.kept.push([template, theme, locals]);
    const started = performance.now();
    const html = await render(template, theme, locals);
    renderTime.micros += (performance.now() - started) * 1000;
    renderTime.renders += 1;
    return html;
  };
  // The plugin's defaults (pluginOptions.ts): a 64 MB answer cache, unless the answers are asked several times.
  const answers = createVersionsAnswers({
    index: standInIndex(read), themes, cacheBytes, settingsFingerprint: 'bench', siteTitle: 'Catalog', catalogHomeUrl: '/',
    generator: files.GENERATOR, languageNames: LANGUAGES.map((code) => ({ code, name: labels.translatorFor(code)('language.name') })),
    now: () => new Date(), timeZone: processTimeZone,
  });
  const translate = labels.translatorFor('en');
  const theme = themes.themeModel('standard', BASE_URL);
  return {
    answers,
    renderTime,
    request: (id, view) => ({
      id, page: 1, sort: 'relevance', filters: [], view, language: 'en', explicitLanguage: undefined, translate, theme, baseUrl: BASE_URL, feedPreview: false,
    }),
  };
}

/** A body without what depends on the second it was built in (as freshAnswers.ts compares them). */
const withoutTimes = (body: Buffer): string => body.toString().replace(/<(pubDate|lastBuildDate)>[^<]*</g, '<$1><');

async function main(): Promise<void> {
  const records = Number(option('--records'));
  const wanted = Number(option('--requests', '12000'));
  const block = Number(option('--block', '250'));
  const view = option('--view', 'rss') as 'rss' | 'html';
  // Each block asked this many times of each build, alternating which goes first; with more than one, no
  // answer is kept (each is built every time), so that one sample of records gives more figures.
  const rounds = Number(option('--rounds', '1'));
  // With --render-loop N, the first pages' templates are rendered again N times by each build, alternating,
  // after the answers: the render alone on the same models, without the rest of the answer around it.
  const renderLoop = Number(option('--render-loop', '0'));
  const index = (await import(resolve(option('--a'), 'dist/src/adapters/sqlite/index.js')) as { openEmbeddedIndex(options: { path: string; readOnly: boolean }): EmbeddedIndex })
    .openEmbeddedIndex({ path: option('--index'), readOnly: true });
  // What listVersions asks for the view's first page in its default order.
  const query = versionsQueryOf({ view, page: 1 });
  let read: ReadAnswers = new Map();
  const sides = [
    { name: 'a', root: option('--a'), ...await answersOf(option('--a'), () => read, rounds > 1 ? 0 : 64 * 2 ** 20) },
    { name: 'b', root: option('--b'), ...await answersOf(option('--b'), () => read, rounds > 1 ? 0 : 64 * 2 ** 20) },
  ];

  // The bench's mix of never-asked records (freshRequestMix.ts).
  const asked = freshRequestMix(records, wanted, DEFAULT_SEED);

  const totals = cpuBySize();
  let rendersCounted = false;
  let differing = 0;
  for (let from = 0, turn = 0; from < asked.length; from += block, turn++) {
    const part = asked.slice(from, from + block);
    // The block's records and pages, read once for both builds (not timed); the index's part is not measured here.
    read = new Map();
    for (const { id } of part) {
      const record = await index.getRecord(id);
      if (record === undefined) throw new Error(`sample record ${id} is not in the index`);
      read.set(id, { record, page: await index.findVersionsOf(record, query) });
      await new Promise((resolve) => setImmediate(resolve));
    }
    const bodies = new Map<string, Buffer[]>();
    for (let round = 0; round < rounds; round++) for (const side of (turn + round) % 2 === 0 ? sides : [...sides].reverse()) {
      const sent: Buffer[] = [];
      for (const { id, workSize } of part) {
        const started = cpuMicros();
        const answer = await side.answers.answerFor(side.request(id, view));
        const body = 'feed' in answer ? side.answers.feedBody(answer.feed) : answer.html;
        const micros = cpuMicros() - started;
        // The first block warms both builds up and is not counted.
        if (turn > 0) totals.add(side.name, workSize, micros);
        else if (!rendersCounted) side.renderTime.micros = side.renderTime.renders = 0;
        sent.push(body);
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (round === 0) bodies.set(side.name, sent);
    }
    rendersCounted = turn > 0;
    const [a, b] = [bodies.get('a')!, bodies.get('b')!];
    for (let i = 0; i < a.length; i++) if (!a[i]!.equals(b[i]!) && withoutTimes(a[i]!) !== withoutTimes(b[i]!)) differing += 1;
  }
  await index.close();

  const lines = [`${view}, the answer's CPU beyond the index (versionsAnswers.ts and the first body), a = ${sides[0]!.root}, b = ${sides[1]!.root}`];
  lines.push(...totals.lines());
  const [ra, rb] = sides.map((side) => side.renderTime.micros / Math.max(1, side.renderTime.renders));
  if (renderLoop > 0) {
    const loopMicros = [0, 0];
    for (let round = 0; round < renderLoop; round++) for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const { kept, render } = sides[i]!.renderTime;
      const started = cpuMicros();
      for (const [template, theme, locals] of kept) await render(template, theme, locals);
      loopMicros[i] = loopMicros[i]! + cpuMicros() - started;
    }
    const [la, lb] = loopMicros.map((micros, i) => micros / (renderLoop * Math.max(1, sides[i]!.renderTime.kept.length)));
    lines.push(`  the same ${sides[0]!.renderTime.kept.length} pages rendered ${renderLoop} times (CPU): a ${la!.toFixed(1)} µs, b ${lb!.toFixed(1)} µs, b/a ${(lb! / la!).toFixed(3)}`);
  }
  if (sides[0]!.renderTime.renders > 0) lines.push(`  the template's render alone (wall time): a ${ra!.toFixed(1)} µs, b ${rb!.toFixed(1)} µs, b/a ${(rb! / ra!).toFixed(3)}`);
  lines.push(`answers with different bytes: ${differing}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
