/**
 * The labels a host shows on its own pages beside the versions pages (`plugin.labelsFor(language)`):
 * "Show all versions (N)" and a format value as the page shows it. Hosts call these with whatever their
 * records hold, so a value of the wrong kind gets the documented empty answer (docs/languages.md,
 * "For the host's own pages"), never an error from inside.
 *
 * Which language's words (`translate`) is the caller's choice (src/http/hostHelpers.ts).
 */
import { formatLabel, type Translate } from './labels.js';

/** The plugin's labels a host shows on its own pages beside the versions pages (its result lists, say). */
export interface HostLabels {
  /** "Show all versions (N)" in the language; '' when `count` is not a whole number ≥ 0. */
  showAllVersions(count: number): string;
  /**
   * A catalog's format value as the versions page shows it: translated when known, else as written;
   * '' when `value` is not a string.
   */
  format(value: string): string;
}

export function hostLabels(translate: Translate): HostLabels {
  return {
    showAllVersions: (count: unknown) => (Number.isSafeInteger(count) && (count as number) >= 0 ? translate('record.showAllVersions', { count: count as number }) : ''),
    format: (value: unknown) => (typeof value === 'string' ? formatLabel(value, translate) : ''),
  };
}
