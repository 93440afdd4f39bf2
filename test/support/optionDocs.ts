/**
 * How the docs write a plugin option's default (docs/options.md, the README's options table, plugin.json),
 * from its definition in src/http/pluginOptions.ts: tests compare the docs with these.
 */
import type { OptionDefault } from '../../src/http/pluginOptions.js';

/** A value as the docs write it in code: `'en'` in a list, `{ standard: 'standard' }`, `64`. */
function asCode(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (Array.isArray(value)) return `[${value.map(asCode).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([name, item]) => `${name}: ${asCode(item)}`).join(', ')} }`;
  }
  return String(value);
}

/** The default as a docs table cell starts: `required`, the value in backticks (a string bare), or the words. */
export function defaultCell(byDefault: OptionDefault): string {
  if ('required' in byDefault) return 'required';
  if ('described' in byDefault) return byDefault.described;
  return `\`${typeof byDefault.value === 'string' ? byDefault.value : asCode(byDefault.value)}\``;
}

/** The default as plugin.json states it: the value itself, or the words; a required option has none. */
export function manifestDefault(byDefault: OptionDefault): { readonly required: true } | { readonly default: unknown } {
  if ('required' in byDefault) return { required: true };
  return { default: 'described' in byDefault ? byDefault.described : byDefault.value };
}
