/**
 * The layers of src/, bottom first: the one table of their order. test/package/importGraph.test.ts holds
 * the imports to it, test/package/architectureDoc.test.ts holds docs/architecture.md's "Layers" table to it.
 * An entry is a folder (`marc`: everything under src/marc/) or a file at the root; a module belongs to its
 * longest entry. Siblings share a row.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['errors.ts'],
  ['textDigest.ts', 'distinctStrings.ts', 'fileChunks.ts', 'packageFiles.ts', 'workerThreadStart.ts'],
  ['record'],
  ['marc'],
  ['work-keys'],
  ['ports.ts'],
  ['portArguments.ts', 'writerWithDecisions.ts'],
  ['i18n'],
  ['versions'],
  ['feed'],
  ['page'],
  ['ingest', 'adapters/sqlite', 'adapters/solr', 'http'],
  ['entries', 'cli'],
  ['deprecatedExports.ts'],
  ['index.ts'],
];
