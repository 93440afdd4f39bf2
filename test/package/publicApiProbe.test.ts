/**
 * The public API cannot be misused into a TypeError from inside. Every export of every subpath that
 * package.json `exports` lists (found at run time, so a new export is probed without a line here) is
 * called with `undefined`, a plain object, a number and a Buffer; factories are then made properly and
 * each method of what they return (nested ones by path, as `harvestState.get`) is called with the same values. Each outcome must be a named error of
 * the family (instanceof VersionsError, with a code) or a documented empty answer; a returned promise or
 * async iterable is awaited or read first, since that is where its error would come.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Koa from 'koa';
import { VersionsError } from '../../src/errors.js';

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, string | { default: string }>;
};

/** The source module behind each code subpath (`./dist/src/x/index.js` → `../../src/x/index.ts`, run through tsx). */
const SUBPATHS: ReadonlyArray<readonly [string, string]> = Object.entries(packageJson.exports)
  .flatMap(([subpath, target]) => {
    const built = typeof target === 'string' ? target : target.default;
    const source = /^\.\/dist\/(src\/.+)\.js$/.exec(built)?.[1];
    return source === undefined ? [] : [[subpath, `../../${source}.js`] as const];
  });

const BAD_INPUTS: ReadonlyArray<readonly [string, unknown]> = [
  ['undefined', undefined],
  ['{}', {}],
  ['42', 42],
  ['Buffer', Buffer.from('x')],
];

/** The default language's "Show all versions (2)", set when the plugin is made (FACTORIES below). */
let defaultShowAllVersions: string | undefined;

/** Exports documented to answer anything they cannot read with an empty answer (docs/work-keys.md, docs/languages.md, docs/loading.md). */
const DOCUMENTED_EMPTY_ANSWERS: Readonly<Record<string, (value: unknown) => boolean>> = {
  workKeysOf: (value) => Array.isArray(value) && value.length === 0,
  workKeysOfDocument: (value) => Array.isArray(value) && value.length === 0,
  // The demo's search box: text that is not a string searches for nothing (src/adapters/sqlite/embeddedIndex.ts).
  searchRecords: (value) => (value as { total?: unknown } | undefined)?.total === 0,
  // A predicate: anything that is not a deletion is not one (src/ingest/recordDeletion.ts).
  isRecordDeletion: (value) => value === false,
  // Anything that is not an offered language code gives the default language's labels (docs/languages.md).
  labelsFor: (value) => defaultShowAllVersions !== undefined
    && (value as { showAllVersions?: (count: number) => unknown } | undefined)?.showAllVersions?.(2) === defaultShowAllVersions,
  // Values of the wrong kind get '' (docs/languages.md, "For the host's own pages").
  'labelsFor("es").format': (value) => value === '',
  'labelsFor("es").showAllVersions': (value) => value === '',
};

/** Bad inputs that are right for one function: a count is a number; a writer's description may be left out. */
const RIGHT_INPUTS: Readonly<Record<string, (input: unknown) => boolean>> = {
  'labelsFor("es").showAllVersions': (input) => typeof input === 'number',
  openWriter: (input) => input === undefined,
  // Options may be left out, or given with no member set (defaults: docs/curation.md, docs/deployment.md).
  'curation.report': (input) => input === undefined || (typeof input === 'object' && !Buffer.isBuffer(input)),
  'versionsLinks(ctx, [], ·)': (input) => input === undefined || (typeof input === 'object' && !Buffer.isBuffer(input)),
};

type Outcome = { readonly kind: 'answer'; readonly value: unknown } | { readonly kind: 'error'; readonly error: unknown };

const isClass = (value: unknown): boolean => typeof value === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(value));

async function settle(value: unknown): Promise<unknown> {
  let settled = value;
  if (settled instanceof Promise) {
    settled = await Promise.race([settled, new Promise((_, reject) => setTimeout(() => reject(new Error('no answer within 10 s')), 10_000))]);
  }
  if (settled !== null && typeof settled === 'object' && Symbol.asyncIterator in settled && !(Symbol.iterator in settled)) {
    const iterator = (settled as AsyncIterable<unknown>)[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.return?.();
  }
  return settled;
}

async function outcomeOf(call: () => unknown): Promise<Outcome> {
  try {
    return { kind: 'answer', value: await settle(call()) };
  } catch (error) {
    return { kind: 'error', error };
  }
}

function describeOutcome(outcome: Outcome): string {
  if (outcome.kind === 'answer') return `answered ${outcome.value === undefined ? 'undefined' : typeof outcome.value}`;
  const error = outcome.error as { name?: string; code?: unknown; message?: string };
  return `threw ${error?.name} ${String(error?.code ?? '')}: ${error?.message}`;
}

/** A coded error of the family, or (for the exports that document one) the empty answer. */
function acceptable(name: string, outcome: Outcome): boolean {
  if (outcome.kind === 'error') {
    return outcome.error instanceof VersionsError && typeof outcome.error.code === 'string';
  }
  return DOCUMENTED_EMPTY_ANSWERS[name]?.(outcome.value) ?? false;
}

/** Made properly, so that their methods can be probed; each is closed after. */
const FACTORIES: Readonly<Record<string, () => Promise<{ instance: object; close(): Promise<void> }>>> = {
  openEmbeddedIndex: async () => {
    const { openEmbeddedIndex } = await import('../../src/entries/sqlite.js');
    const index = openEmbeddedIndex({ path: ':memory:' });
    return { instance: index, close: () => index.close() };
  },
  createSolrIndex: async () => {
    const { createSolrIndex } = await import('../../src/adapters/solr/index.js');
    // Nothing listens on the discard port: a method that gets past its checks meets a refused connection.
    const index = createSolrIndex({ url: 'http://127.0.0.1:9/solr/biblio', timeoutMs: 2000 });
    return { instance: index, close: () => index.close() };
  },
  createSolrWriter: async () => {
    const { createSolrWriter } = await import('../../src/adapters/solr/index.js');
    const writer = createSolrWriter({ url: 'http://127.0.0.1:9/solr/biblio', timeoutMs: 2000 });
    return { instance: writer, close: () => writer.close() };
  },
  createVersionsPlugin: async () => {
    const { createVersionsPlugin } = await import('../../src/index.js');
    const { openEmbeddedIndex } = await import('../../src/entries/sqlite.js');
    const index = openEmbeddedIndex({ path: ':memory:' });
    const plugin = createVersionsPlugin({ index });
    const labels = plugin.labelsFor('es');
    defaultShowAllVersions = plugin.labelsFor('en').showAllVersions(2);
    // A request's context as Koa makes it, for the helpers' other arguments.
    const app = new Koa();
    const request = new IncomingMessage(new Socket());
    request.headers.host = 'catalog.example';
    const ctx = app.createContext(request, new ServerResponse(request));
    return {
      instance: {
        languageOf: plugin.languageOf,
        labelsFor: plugin.labelsFor,
        versionsLinks: plugin.versionsLinks,
        'versionsLinks(ctx, ·)': (value: unknown) => plugin.versionsLinks(ctx, value as string[]),
        'versionsLinks(ctx, [], ·)': (value: unknown) => plugin.versionsLinks(ctx, [], value as { minimum?: number }),
        // The labels labelsFor answers with (HostLabels), probed as methods of the plugin.
        'labelsFor("es").format': (value: unknown) => labels.format(value as string),
        'labelsFor("es").showAllVersions': (value: unknown) => labels.showAllVersions(value as number),
      },
      close: () => index.close(),
    };
  },
  harvestOai: async () => {
    const { harvestOai } = await import('../../src/ingest/index.js');
    const harvest = harvestOai({ baseUrl: 'http://127.0.0.1:9/oai', metadataPrefix: 'oai_dc' });
    return { instance: { summary: harvest.summary }, close: async () => undefined };
  },
};

/**
 * The methods each factory's answer offers a host (its interface: CatalogIndex, EmbeddedIndex, SolrWriter,
 * VersionsPlugin, OaiHarvest), less those that take no input or end the instance (close, commit, count,
 * contentVersion, deleteAll). Classes' private methods are not the API and are not probed.
 */
const PUBLIC_METHODS: Readonly<Record<string, readonly string[]>> = {
  openEmbeddedIndex: [
    'getRecord', 'findVersions', 'countVersions', 'load', 'openWriter', 'searchRecords', 'harvestState.get', 'harvestState.set',
    'curation.merge', 'curation.split', 'curation.undo', 'curation.replaceAll', 'curation.report', 'curation.curating',
  ],
  createSolrIndex: ['getRecord', 'findVersions', 'countVersions'],
  createSolrWriter: ['add', 'storedContentOf', 'deleteByIds'],
  createVersionsPlugin: [
    'languageOf', 'labelsFor', 'labelsFor("es").format', 'labelsFor("es").showAllVersions',
    'versionsLinks', 'versionsLinks(ctx, ·)', 'versionsLinks(ctx, [], ·)',
  ],
  harvestOai: ['summary'],
};

/** A method by its name, or by its path (`harvestState.get`), called on the object that holds it. */
function methodOf(instance: object, name: string): (argument: unknown) => unknown {
  const own = (instance as Record<string, unknown>)[name];
  if (typeof own === 'function') return (own as (argument: unknown) => unknown).bind(instance);
  const path = name.split('.');
  const holder = path.slice(0, -1).reduce<Record<string, unknown>>((object, part) => object[part] as Record<string, unknown>, instance as Record<string, unknown>);
  const method = holder[path.at(-1)!];
  if (typeof method !== 'function') throw new Error(`the probe names ${name}, which the instance does not offer`);
  return (method as (argument: unknown) => unknown).bind(holder);
}

function probe(label: string, name: string, call: () => unknown, input: unknown): void {
  if (RIGHT_INPUTS[name]?.(input) === true) return;
  const title = `${label} answers with a coded error or a documented empty answer`;
  test(title, async (t) => {
    const outcome = await outcomeOf(call);
    t.true(acceptable(name, outcome), `${label} ${describeOutcome(outcome)}`);
  });
}

// Everything is imported and made first, so that every test below is declared in one synchronous pass.
const modules = await Promise.all(SUBPATHS.map(async ([subpath, modulePath]) => [subpath, (await import(modulePath)) as Record<string, unknown>] as const));
const made = new Map<string, { instance: object; close(): Promise<void> }>();
for (const [name, factory] of Object.entries(FACTORIES)) made.set(name, await factory());
test.after.always(async () => {
  for (const instance of made.values()) await instance.close().catch(() => undefined);
});

for (const [subpath, exported] of modules) {
  const shown = subpath === '.' ? '.' : subpath.slice(1);
  test(`${subpath} exports something to probe`, (t) => {
    t.true(Object.values(exported).some((value) => typeof value === 'function'));
  });
  for (const [name, value] of Object.entries(exported)) {
    if (typeof value !== 'function') continue;
    for (const [inputName, input] of BAD_INPUTS) {
      const label = `${shown} ${name}(${inputName})`;
      if (isClass(value)) {
        // Error classes: constructing one from any value gives an error of the family with a code (the
        // base class takes the code as its argument, so it only has to be of the family).
        test(`${label}: constructing it gives a coded error`, (t) => {
          const constructed = (() => {
            try {
              return new (value as new (...args: unknown[]) => unknown)(input);
            } catch (error) {
              return error;
            }
          })();
          t.true(constructed instanceof VersionsError && (value === VersionsError || typeof constructed.code === 'string'),
            `new ${name}(${inputName}) gave ${String(constructed)}`);
        });
        continue;
      }
      probe(label, name, () => (value as (argument: unknown) => unknown)(input), input);
    }
    // The same factory is exported from the root (deprecated) and from its subpath: its methods are probed once.
    const instance = made.get(name);
    if (instance === undefined || (subpath === '.' && name !== 'createVersionsPlugin')) continue;
    for (const method of PUBLIC_METHODS[name] ?? []) {
      for (const [inputName, input] of BAD_INPUTS) {
        const label = `${shown} ${name}().${method}(${inputName})`;
        probe(label, method, () => methodOf(instance.instance, method)(input), input);
      }
    }
  }
}
