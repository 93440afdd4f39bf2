/**
 * The one progress line the CLI draws on a terminal (load, harvest, delete and sync): rewritten in place at
 * most ten times a second, with the share done and the time left when the total is known (the input's
 * bytes for a load, the core's documents for a sync), else the count and the rate.
 *
 * Left to the commands: whether stderr is a terminal, and what counts as done.
 */
export interface ProgressStream {
  write(text: string): unknown;
  readonly columns?: number;
}

export class ProgressBar {
  private readonly started = performance.now();
  private lastDraw = 0;
  private shown = false;
  private amount: number;

  /**
   * `total`: the amount the work ends at (undefined when unknown); `unit`: what `update` counts ("record");
   * `startAt`: the amount already done before this bar (a resumed run), left out of the rate and the ETA;
   * `label`: a word drawn first ("walk").
   */
  constructor(
    private readonly stream: ProgressStream, private readonly total: number | undefined, private readonly unit: string,
    private readonly startAt = 0, private readonly label?: string,
  ) {
    this.amount = startAt;
  }

  /** More of the total is done (bytes read, say). */
  advance(amount: number): void {
    this.amount += amount;
  }

  /** This much of the total is done in all. */
  advanceTo(amount: number): void {
    this.amount = amount;
  }

  /** Draws `count` items, of which `read` were taken since this bar started (for the rate). */
  update(count: number, read: number): void {
    const now = performance.now();
    if (now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? Math.round(read / seconds) : 0;
    let text = `${this.unit} ${count}  ${rate} ${this.unit}s/s`;
    if (this.total !== undefined && this.total > 0) {
      const width = Math.max(10, Math.min(40, (this.stream.columns || 80) - 50));
      const fraction = Math.min(1, this.amount / this.total);
      const filled = Math.round(fraction * width);
      const gained = (this.amount - this.startAt) / this.total;
      const left = gained > 0 && seconds >= 1 ? ` ETA ${clockTime((seconds * (1 - fraction)) / gained)}` : '';
      text = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}% ${text}${left}`;
    }
    this.stream.write(`\r\x1b[2K${this.label === undefined ? '' : `${this.label} `}${text}`);
    this.shown = true;
  }

  /** The last step, which reads nothing more: shown until clear(). */
  finalStep(text: string): void {
    this.stream.write(`\r\x1b[2K${text}`);
    this.shown = true;
  }

  /** Removes the bar (before another message, and at the end). */
  clear(): void {
    if (!this.shown) return;
    this.stream.write('\r\x1b[2K');
    this.shown = false;
    this.lastDraw = 0;
  }
}

/** 75 → "1:15", 3725 → "1:02:05". */
export function clockTime(totalSeconds: number): string {
  const whole = Math.max(0, Math.round(totalSeconds));
  const [hours, minutes, seconds] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  return hours > 0 ? `${hours}:${two(minutes)}:${two(seconds)}` : `${minutes}:${two(seconds)}`;
}
