/**
 * The shape of src/'s imports (docs/architecture.md, "Layers"): no module reaches itself through its
 * imports, and the layers keep their order. LAYERS (test/support/sourceLayers.ts) is the one table of
 * that order, bottom first: a module may reach, through any chain of imports (type-only ones included),
 * only modules of its own layer entry or of entries below it; entries on one row are siblings and may not
 * import each other.
 */
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAYERS } from '../support/sourceLayers.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each module's relative imports and re-exports (static, type-only included), as paths under src/. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const specifier = /^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|^\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/gm;
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets: string[] = [];
    for (const match of text.matchAll(specifier)) {
      const target = (match[1] ?? match[2]) as string;
      targets.push(relative(SRC, resolve(dirname(file), target.replace(/\.js$/, '.ts'))));
    }
    graph.set(relative(SRC, file), targets);
  }
  return graph;
}

/** The cycles found by a depth-first walk, each as the modules around it. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (module: string) => {
    state.set(module, 'open');
    stack.push(module);
    for (const next of graph.get(module) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (state.get(next) === undefined && graph.has(next)) visit(next);
    }
    stack.pop();
    state.set(module, 'done');
  };
  for (const module of [...graph.keys()].sort()) if (state.get(module) === undefined) visit(module);
  return cycles;
}

test('the cycle finder finds a cycle of type-only imports, and none in a chain', (t) => {
  t.deepEqual(cyclesOf(new Map([['a.ts', ['b.ts']], ['b.ts', ['a.ts']]])), [['a.ts', 'b.ts', 'a.ts']]);
  t.deepEqual(cyclesOf(new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', []]])), []);
});

test('no module of src/ imports itself through others', (t) => {
  const graph = importGraph();
  t.true(graph.size > 50, 'the walk found the sources');
  t.true(graph.get(join('adapters', 'sqlite', 'tableWriters.ts'))!.length > 0, 'imports are read');
  t.deepEqual(cyclesOf(graph).map((cycle) => cycle.join(' → ')), []);
});

/** Each module's layer entry and the row it sits on; undefined for a module no entry holds. */
function layerOf(module: string, layers: readonly (readonly string[])[]): { entry: string; row: number } | undefined {
  let found: { entry: string; row: number } | undefined;
  layers.forEach((row, index) => {
    for (const entry of row) {
      const holds = module === entry || module.startsWith(`${entry}/`);
      if (holds && (found === undefined || entry.length > found.entry.length)) found = { entry, row: index };
    }
  });
  return found;
}

/**
 * Each module that reaches one it may not (a sibling's, a higher layer's, or one no entry holds), with
 * the chain of imports that gets there: `a.ts → b.ts → c.ts`. Each module is walked once from every start.
 */
function upwardReaches(graph: ReadonlyMap<string, readonly string[]>, layers: readonly (readonly string[])[]): string[] {
  const found: string[] = [];
  for (const start of [...graph.keys()].sort()) {
    const from = layerOf(start, layers);
    const seen = new Set([start]);
    const queue: string[][] = [[start]];
    while (queue.length > 0) {
      const chain = queue.shift()!;
      for (const next of graph.get(chain.at(-1)!) ?? []) {
        if (seen.has(next)) continue;
        seen.add(next);
        const to = layerOf(next, layers);
        const allowed = from !== undefined && to !== undefined && (to.entry === from.entry || to.row < from.row);
        if (!allowed) found.push([...chain, next].join(' → '));
        else queue.push([...chain, next]);
      }
    }
  }
  return found;
}

test('the layer checker catches upward, sibling and unplaced imports however far away, and passes a downward chain', (t) => {
  const layers = [['low.ts', 'base'], ['mid', 'side'], ['top.ts']];
  const cases: [string, [string, string[]][], string[]][] = [
    ['a chain downward', [['top.ts', ['mid/a.ts']], ['mid/a.ts', ['mid/b.ts', 'low.ts']], ['mid/b.ts', ['low.ts']], ['low.ts', []]], []],
    ['an upward import one step away', [['low.ts', ['mid/a.ts']], ['mid/a.ts', []]], ['low.ts → mid/a.ts']],
    ['an upward import two steps away', [['base/a.ts', ['base/b.ts']], ['base/b.ts', ['mid/a.ts']], ['mid/a.ts', []]],
      ['base/a.ts → base/b.ts → mid/a.ts', 'base/b.ts → mid/a.ts']],
    ['a sibling reached through a lower layer', [['mid/a.ts', ['low.ts']], ['low.ts', ['side/c.ts']], ['side/c.ts', []]],
      ['low.ts → side/c.ts', 'mid/a.ts → low.ts → side/c.ts']],
    ['an upward import at the end of a chain', [['top.ts', ['mid/a.ts']], ['mid/a.ts', ['mid/b.ts']], ['mid/b.ts', ['top.ts']]],
      ['mid/a.ts → mid/b.ts → top.ts', 'mid/b.ts → top.ts']],
    ['a sibling', [['mid/a.ts', ['side/c.ts']], ['side/c.ts', []]], ['mid/a.ts → side/c.ts']],
    ['a module no entry holds', [['top.ts', ['stray.ts']], ['stray.ts', []]], ['top.ts → stray.ts']],
    ['a longer entry holds its modules', [['mid/a.ts', ['low.ts']]], []],
  ];
  for (const [name, edges, expected] of cases) t.deepEqual(upwardReaches(new Map(edges), layers), expected, name);
  t.is(layerOf('adapters/sqlite/embeddedIndex.ts', LAYERS)?.entry, 'adapters/sqlite', 'the real table: a nested entry holds its folder');
});

test('every module of src/ sits in a layer and reaches only its own layer or those below, transitively', (t) => {
  const graph = importGraph();
  t.deepEqual([...graph.keys()].filter((module) => layerOf(module, LAYERS) === undefined), [], 'each module has a layer');
  t.deepEqual(upwardReaches(graph, LAYERS), []);
});
