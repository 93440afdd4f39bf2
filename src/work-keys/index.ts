/**
 * `koa-catalog-versions/work-keys`: the keys that make two records versions of one work. `workKeysOf`
 * takes a record document as a host has it (VuFind field names; strings or lists of strings) and never
 * throws; docs/work-keys.md explains the rules.
 */
export { workKeysOf, normaliseForWorkKey } from './workKeys.js';
