/**
 * How busy the rest of the machine was while a benchmark child did its timed work: the CPU time every
 * process spent (Linux /proc/stat) minus this process's own (all its threads), over the wall time, in
 * cores. On the project's 2-core machines a load that keeps two threads busy (the bulk load's main thread
 * and its staging worker, or the MARC mapping workers) loses more to one busy neighbour than the
 * single-threaded insert ceiling does, so a load/ceiling ratio is read with these figures beside it
 * (docs/benchmarks.md, "What each figure means").
 */
import { readFileSync } from 'node:fs';

export interface MachineShare {
  /** CPU seconds of this process (user + system, every thread) during the timed part. */
  readonly ownCpuSeconds: number;
  /** Cores' worth of CPU the other processes used during it, on average; NaN where /proc/stat cannot be read. */
  readonly othersCores: number;
}

/** Busy CPU seconds of the whole machine since boot (user, nice, system, irq, softirq, steal). */
function machineBusySeconds(): number {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
    // /proc/stat counts in USER_HZ, 100 a second on Linux.
    return (user + nice + system + irq + softirq + steal) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Starts watching; the function returned gives the figures from then to its call. */
export function watchMachineShare(): () => MachineShare {
  const wallStart = process.hrtime.bigint();
  const ownStart = process.cpuUsage();
  const busyStart = machineBusySeconds();
  return () => {
    const wall = Number(process.hrtime.bigint() - wallStart) / 1e9;
    const own = process.cpuUsage(ownStart);
    const ownCpuSeconds = (own.user + own.system) / 1e6;
    return { ownCpuSeconds, othersCores: Math.max(0, (machineBusySeconds() - busyStart - ownCpuSeconds) / wall) };
  };
}
