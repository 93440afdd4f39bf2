/**
 * The report of the work-collection phase (workCollectionCase.ts): the issue's targets as PASS or MISS,
 * the phase's lines for the benchmark's output, and its fields of the JSON line.
 */
import { fmt, type HttpFigures } from './loadDriver.js';
import type { WorkCollectionCase } from './workCollectionCase.js';
import type { KindTotals } from './workCollectionServer.js';

interface Target { name: string; measured: string; goal: string; pass: boolean }

/** The issue's targets: kept ≥ 80% of the embedded index's, afresh ≥ 0.7× the file's with ≤ 3 requests, a second server without a walk. */
export function workCollectionCaseTargets(result: WorkCollectionCase): Target[] {
  if (!result.ok) return [];
  const targets: Target[] = [];
  for (const view of ['rss', 'html'] as const) {
    const label = view === 'rss' ? 'RSS' : 'HTML';
    const { collection, embedded } = result.kept[view];
    const share = collection.rps / result.ceiling.rps;
    const embeddedShare = embedded.rps / result.ceiling.rps;
    targets.push({
      name: `work collection, kept ${label} / ceiling, against the embedded index's (same rounds)`,
      measured: `${fmt(share * 100, 1)}% vs ${fmt(embeddedShare * 100, 1)}% (${fmt((share / embeddedShare) * 100)}%)`,
      goal: '>= 80% of it', pass: share >= 0.8 * embeddedShare,
    });
  }
  for (const view of ['rss', 'html'] as const) {
    const label = view === 'rss' ? 'RSS' : 'HTML';
    const { collection, file } = result.fresh[view];
    const ratio = collection.http.rps / file.http.rps;
    targets.push({
      name: `work collection, ${label} built afresh / on the work index file`,
      measured: `${fmt(ratio, 2)}x (${fmt(collection.http.rps)} vs ${fmt(file.http.rps)}/s)`, goal: '>= 0.7x', pass: ratio >= 0.7,
    });
    targets.push({
      name: `work collection, Solr requests per ${label} answer built afresh`,
      measured: fmt(collection.questionsPerAnswer, 3), goal: '<= 3', pass: collection.questionsPerAnswer <= 3,
    });
  }
  const { collection, file } = result.firstAnswer;
  targets.push({
    name: 'a second app server\'s first answer: work collection (file path: walk, then answer)',
    measured: `${fmt(collection.totalMs)} ms (${fmt(file.totalMs)} ms, walk ${fmt(file.walkMs)} ms)`,
    goal: 'no walk: sooner than the file path', pass: collection.totalMs < file.totalMs,
  });
  return targets;
}

export function table(rows: ReadonlyArray<readonly string[]>): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((r) => (r[column] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ').trimEnd());
}

/** Per answer: count and mean ms of each kind. */
function kindCells(totals: KindTotals, answers: number): string {
  return Object.entries(totals).sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, { count, ms }]) => `${kind} ${fmt(count / answers, 2)}× ${fmt(ms / Math.max(1, count), 2)} ms`).join('; ') || 'none';
}

export function workCollectionCaseLines(result: WorkCollectionCase): string[] {
  const title = `Work collection on a SolrCloud (${result.ok ? result.workShards : 'two'} shard(s), two replicas) beside an aggregator's two-shard collection without keys, 50 conns`;
  if (!result.ok) return [title, `  ${result.skipped ? 'skipped' : 'not measured'}: ${result.error}`, ''];
  const row = (label: string, f: HttpFigures, cpuUs: number) => [label, fmt(f.rps), fmt(f.p50Ms, 2), fmt(f.p99Ms, 2), `${fmt((f.rps / result.ceiling.rps) * 100, 1)}%`, fmt(cpuUs)];
  const lines = [title, ...table([
    ['kept answers, alternating', 'req/s', 'p50 ms', 'p99 ms', 'of ceiling', 'server CPU µs'],
    ['ceiling, bare Koa (alternating with the kept cases)', fmt(result.ceiling.rps), fmt(result.ceiling.p50Ms, 2), fmt(result.ceiling.p99Ms, 2), '', ''],
    row('work collection: RSS, kept answers', result.kept.rss.collection, result.keptCpuUs.rss.collection),
    row('embedded index: RSS, kept answers', result.kept.rss.embedded, result.keptCpuUs.rss.embedded),
    row('work collection: HTML, kept answers', result.kept.html.collection, result.keptCpuUs.html.collection),
    row('embedded index: HTML, kept answers', result.kept.html.embedded, result.keptCpuUs.html.embedded),
  ])];
  const freshRows: string[][] = [['built afresh (never asked before), alternating', 'req/s', 'p50 ms', 'p99 ms', 'Solr requests', 'server CPU ms', 'Solr JVM CPU ms']];
  for (const view of ['rss', 'html'] as const) {
    for (const source of ['collection', 'file'] as const) {
      const f = result.fresh[view][source];
      freshRows.push([`${view === 'rss' ? 'RSS' : 'HTML'} on the ${source === 'collection' ? 'work collection' : 'work index file'}`, fmt(f.http.rps), fmt(f.http.p50Ms, 2), fmt(f.http.p99Ms, 2), fmt(f.questionsPerAnswer, 3), fmt(f.serverCpuMsPerAnswer, 2), fmt(f.solrCpuMsPerAnswer, 2)]);
    }
  }
  lines.push(...table(freshRows));
  const { collection, file } = result.firstAnswer;
  const failures = [result.kept.rss.collection, result.kept.html.collection, ...(['rss', 'html'] as const).flatMap((v) => [result.fresh[v].collection.http, result.fresh[v].file.http])].reduce((sum, f) => sum + f.failures, 0);
  lines.push(
    `  (CPU per answer: the plugin server's, and the Solr JVM's, which other users of that Solr share; failed responses: ${failures}${result.coldRepeats > 0 ? `; ${fmt(result.coldRepeats)} never-asked requests came round again` : ''})`,
    `  a second app server, from a new process to its first feed: work collection ${fmt(collection.totalMs)} ms (listening after ${fmt(collection.startMs)} ms, first answer ${fmt(collection.answerMs)} ms); `
      + `work index file ${fmt(file.totalMs)} ms, of which its own walk of the core ${fmt(file.walkMs)} ms (${fmt(file.documents)} documents), first answer ${fmt(file.answerMs)} ms`,
  );
  for (const source of ['collection', 'file'] as const) {
    const t = result.trace[source];
    lines.push(
      `  one at a time on the ${source === 'collection' ? 'work collection' : 'work index file'}: ${fmt(t.answerMs, 2)} ms an answer (${t.answers} answers, RSS and HTML alternating); per answer:`,
      `    the adapter's requests (count, mean ms as it saw them): ${kindCells(t.counts.adapter, t.answers)}`,
      `    Solr's answers at the forwarder (upstream ms): ${kindCells(t.counts.upstream, t.answers)}`,
      `    Solr's QTime: ${kindCells(t.counts.qtime, t.answers)}`,
    );
  }
  lines.push(
    `  ${fmt(result.records)} records; the work collection ${result.collectionSync.firstWalk ? 'walked' : 'synced (changes only)'}: ${fmt(result.collectionSync.fetched)} documents in ${fmt(result.collectionSync.seconds, 1)} s; `
      + `catalog collection ${result.fillSeconds === undefined ? 'kept from an earlier run' : `filled in ${fmt(result.fillSeconds, 1)} s`}; load average ${fmt(result.loadAverage[0], 1)} → ${fmt(result.loadAverage[1], 1)}`,
    '',
  );
  return lines;
}

export function workCollectionCaseJson(result: WorkCollectionCase): Record<string, number | string> {
  if (!result.ok) return { work_collection_error: result.error };
  const round3 = (n: number) => Math.round(n * 1000) / 1000;
  const out: Record<string, number | string> = {
    work_collection_ceiling_rps_50: Math.round(result.ceiling.rps),
    work_collection_first_answer_ms: Math.round(result.firstAnswer.collection.totalMs),
    work_collection_file_first_answer_ms: Math.round(result.firstAnswer.file.totalMs),
    work_collection_file_walk_ms: Math.round(result.firstAnswer.file.walkMs),
  };
  for (const view of ['rss', 'html'] as const) {
    out[`work_collection_${view}_kept_rps_50`] = Math.round(result.kept[view].collection.rps);
    out[`work_collection_embedded_${view}_kept_rps_50`] = Math.round(result.kept[view].embedded.rps);
    out[`work_collection_${view}_kept_ratio_to_embedded`] = round3(result.kept[view].collection.rps / result.kept[view].embedded.rps);
    out[`work_collection_${view}_kept_server_cpu_us`] = Math.round(result.keptCpuUs[view].collection);
    out[`work_collection_embedded_${view}_kept_server_cpu_us`] = Math.round(result.keptCpuUs[view].embedded);
    for (const source of ['collection', 'file'] as const) {
      const f = result.fresh[view][source];
      out[`work_collection_${view}_fresh_${source}_rps_50`] = Math.round(f.http.rps);
      out[`work_collection_${view}_fresh_${source}_requests_per_answer`] = round3(f.questionsPerAnswer);
      out[`work_collection_${view}_fresh_${source}_server_cpu_ms`] = round3(f.serverCpuMsPerAnswer);
    }
    out[`work_collection_${view}_fresh_ratio_to_file`] = round3(result.fresh[view].collection.http.rps / result.fresh[view].file.http.rps);
  }
  return out;
}
