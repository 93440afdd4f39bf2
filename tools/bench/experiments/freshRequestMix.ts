/**
 * What the side-by-side tools of answers built afresh share (freshAnswers.ts, indexSideBySide.ts):
 * the bench's mix of records never asked before, and CPU time per answer summed by
 * the size of the record's work (workSizeClasses.ts) for two builds, a and b. Drawing requests and
 * timing them is each tool's own.
 */
import { planCatalog, sampleCatalog, SeededRandom, type SampleRecord } from '../catalogGenerator.js';
import { SIZE_CLASSES, sizeClassOf } from './workSizeClasses.js';

/** The bench's mix of never-asked records: uniform over the catalog, 5% from the largest works, shuffled. */
export function freshRequestMix(records: number, wanted: number, seed: number): SampleRecord[] {
  const plan = planCatalog(records, seed);
  const sample = sampleCatalog(plan, wanted, Math.max(20, Math.round(wanted / 19)));
  const asked = [...sample.typical];
  for (let i = 0; i < Math.round(asked.length / 19) && sample.large.length > 0; i++) asked.push(sample.large[i % sample.large.length]!);
  const random = new SeededRandom(seed ^ 0xf7e5);
  for (let i = asked.length - 1; i > 0; i--) {
    const j = random.below(i + 1);
    [asked[i], asked[j]] = [asked[j]!, asked[i]!];
  }
  return asked;
}

/** CPU microseconds per answer of builds a and b, in all and by work size; `lines` reports them. */
export function cpuBySize(): { add(side: string, workSize: number, micros: number): void; lines(): string[] } {
  const totals = new Map<string, { answers: number; micros: number }>();
  const addTo = (key: string, micros: number) => {
    const total = totals.get(key) ?? { answers: 0, micros: 0 };
    total.answers += 1;
    total.micros += micros;
    totals.set(key, total);
  };
  return {
    add(side, workSize, micros) {
      addTo(`${side} all`, micros);
      addTo(`${side} ${sizeClassOf(workSize)}`, micros);
    },
    lines() {
      const lines: string[] = [];
      for (const key of ['all', ...SIZE_CLASSES.map(([, name]) => name)]) {
        const [a, b] = [totals.get(`a ${key}`), totals.get(`b ${key}`)];
        if (a === undefined || b === undefined) continue;
        const [perA, perB] = [a.micros / a.answers, b.micros / b.answers];
        lines.push(`  work of ${key.padEnd(7)} ${String(a.answers).padStart(6)} answers: a ${perA.toFixed(0).padStart(5)} µs, b ${perB.toFixed(0).padStart(5)} µs, b/a ${(perB / perA).toFixed(3)}`);
      }
      return lines;
    },
  };
}
