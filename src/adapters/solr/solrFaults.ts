/**
 * How the Solr adapter and the Solr writer read Solr's failures: Solr's own error object, network errors,
 * and proxy error pages, each turned into one line for the log. Nothing here reaches a client.
 */

/** `msg (code N)` from Solr's error object `{"error":{"msg":…,"code":…}}`, given a body or parsed JSON. */
export function solrErrorOf(bodyOrData: unknown): string | undefined {
  let data = bodyOrData;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      return undefined;
    }
  }
  if (!isObject(data) || !isObject(data.error)) return undefined;
  const { msg, code, trace } = data.error;
  // Solr puts the message in `msg`; for some uncaught exceptions only `trace` is there.
  const text = typeof msg === 'string' ? msg : typeof trace === 'string' ? trace.split('\n', 1)[0] ?? '' : 'no message';
  return `${snippet(text)}${typeof code === 'number' ? ` (code ${code})` : ''}`;
}

export function describeNetworkError(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code !== undefined && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
}

export function snippet(text: string): string {
  // HTML error pages from proxies: tags out, whitespace folded, short enough for one log line.
  const plain = text.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  if (plain === '') return '(empty body)';
  return plain.length > 300 ? `${plain.slice(0, 300)}…` : plain;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
