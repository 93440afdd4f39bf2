/** What a command writes, kept: the `io` a command is run with, and its stdout and stderr text so far. */
export function capture() {
  let out = '';
  let err = '';
  return {
    io: { stdout: { write: (text: string) => (out += text) }, stderr: { write: (text: string) => (err += text) } },
    out: () => out,
    err: () => err,
  };
}
