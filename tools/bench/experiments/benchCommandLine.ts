/**
 * The command-line options of the side-by-side bench tools (`--name value` and bare flags), read from
 * process.argv. Left to each tool: which options it has and what they mean (its usage header).
 */

/** The value after `name`, else `fallback`; neither is an error naming the option. */
export function option(name: string, fallback?: string): string {
  const at = process.argv.indexOf(name);
  const value = at >= 0 ? process.argv[at + 1] : fallback;
  if (value === undefined) throw new Error(`missing ${name}`);
  return value;
}

/** Whether the bare flag `name` was given. */
export const flag = (name: string): boolean => process.argv.includes(name);
