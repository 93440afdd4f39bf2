/**
 * The shape of src/'s imports (docs/architecture.md): no module reaches itself through its imports, type-only
 * ones included, and the adapters depend on the ports (src/ports.ts), the record and the errors, never on the
 * ingest pipeline, the HTTP layer or the CLI. The one exception is the `koa-catalog-versions/sqlite` entry,
 * which adds the deprecated `load` from src/ingest/loadDocuments.ts.
 */
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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

test('adapters import the ports, never the ingest pipeline, the HTTP layer or the CLI', (t) => {
  const allowed = new Set([`${join('adapters', 'sqlite', 'index.ts')} → ${join('ingest', 'loadDocuments.ts')}`]);
  const crossings: string[] = [];
  for (const [module, targets] of importGraph()) {
    if (!module.startsWith(`adapters${'/'}`)) continue;
    for (const target of targets) {
      if (/^(ingest|http|cli|versions|feed|page|i18n)\//.test(target) && !allowed.has(`${module} → ${target}`)) crossings.push(`${module} → ${target}`);
    }
  }
  t.deepEqual(crossings, []);
});
