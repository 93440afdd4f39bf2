/**
 * A writer that applies a library's grouping decisions (src/work-keys/curation/curationDecisions.ts) to
 * the keys of the documents a load writes: the pipeline calls its `curateWorkKeys` for each prepared
 * document (src/ingest/pipeline.ts). Any index's writer can be wrapped: the embedded index wraps its own
 * with the decisions it keeps (src/adapters/sqlite/curationTable.ts); a load into Solr is given them from
 * a decisions file (`--grouping FILE`, src/cli/loadRecords.ts).
 *
 * Left to others: keeping decisions, writing documents.
 */
import { InvalidArgumentError } from './errors.js';
import { checkCurationDecisions, curationRulesOf, type CurationDecision } from './work-keys/curation/curationDecisions.js';
import { missingWriterMethods, type IngestWriter } from './ports.js';

/**
 * The writer, rewriting the keys of the records the decisions name; `onRewritten` hears each such
 * record's own keys (the embedded index keeps them for an undo). Without decisions, the writer itself.
 */
export function writerWithDecisions(
  writer: IngestWriter, decisions: readonly CurationDecision[], onRewritten?: (id: string, ownKeys: readonly string[]) => void,
): IngestWriter {
  const missing = missingWriterMethods(writer);
  if (missing.length > 0) {
    throw new InvalidArgumentError('writerWithDecisions', 'writer', `an IngestWriter (it has no ${missing.join(', ')})`, writer);
  }
  checkCurationDecisions(decisions, 'writerWithDecisions');
  if (onRewritten !== undefined && typeof onRewritten !== 'function') {
    throw new InvalidArgumentError('writerWithDecisions', 'onRewritten', 'a function, or nothing', onRewritten);
  }
  const rules = curationRulesOf(decisions);
  if (rules.namedRecords.size === 0) return writer;
  const curateWorkKeys: NonNullable<IngestWriter['curateWorkKeys']> = (document) => {
    if (!rules.names(document.id)) return document;
    const own = document.work_keys_str_mv ?? [];
    onRewritten?.(document.id, own);
    return { ...document, work_keys_str_mv: rules.curatedKeysOf(document.id, own) };
  };
  return withMember(writer, 'curateWorkKeys', curateWorkKeys);
}

/**
 * The writer with one member replaced or added; every other member is the writer's own, its methods
 * called on the writer itself (a class's methods and state stay where they are).
 */
export function withMember<K extends keyof IngestWriter>(writer: IngestWriter, name: K, value: IngestWriter[K]): IngestWriter {
  return new Proxy(writer, {
    get(target, property) {
      if (property === name) return value;
      const member: unknown = Reflect.get(target, property, target);
      return typeof member === 'function' ? member.bind(target) : member;
    },
    has: (target, property) => property === name || Reflect.has(target, property),
  });
}
