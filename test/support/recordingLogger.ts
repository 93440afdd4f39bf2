/**
 * The one way tests capture what the plugin logs: a logger (the plugin's `logger` option) that keeps each
 * entry instead of printing it, so a test run shows only results and a test that provokes an error asserts
 * what was logged for it.
 */
import type { PluginLogger } from '../../src/index.js';

export interface LoggedLine {
  level: 'error' | 'warn';
  message: string;
  details?: Record<string, unknown>;
}

export interface RecordingLogger extends PluginLogger {
  /** Every entry so far, oldest first (the same array throughout, so a test may hold on to it). */
  readonly logged: LoggedLine[];
  /** The entries so far, and forgets them: what one step of a test logged, for tests sharing a host. */
  take(): LoggedLine[];
}

export function recordingLogger(): RecordingLogger {
  const logged: LoggedLine[] = [];
  const record = (level: LoggedLine['level']) => (message: string, details?: Record<string, unknown>) =>
    void logged.push({ level, message, ...(details ? { details } : {}) });
  return {
    logged,
    error: record('error'),
    warn: record('warn'),
    take: () => logged.splice(0, logged.length),
  };
}

/** A logged entry as one line, for assertion messages. */
export const describeLogged = (line: LoggedLine): string => `${line.level} ${line.message}`;
