// The machine's CPU time between two readings of /proc/stat, as shares of the whole: what the
// e2e suite prints beside its latency figures, so a slow run can be told from a slow change (on a
// virtual machine, "stolen" is time the host gave to others while this one wanted to run).
import { readFileSync } from 'node:fs';

/** The aggregate `cpu` line's counters (USER_HZ ticks), in /proc/stat's order. */
export type CpuTicks = readonly number[];

export interface CpuShares {
  /** user and nice (guest time is counted inside them) */
  user: number;
  /** system, irq and softirq */
  system: number;
  idle: number;
  iowait: number;
  stolen: number;
}

/** The `cpu` line of a /proc/stat text. */
export function cpuTicks(procStat: string): CpuTicks {
  const line = procStat.split('\n').find((l) => /^cpu\s/.test(l));
  if (!line) throw new Error('no aggregate cpu line in /proc/stat');
  return line.trim().split(/\s+/).slice(1).map(Number);
}

export function readCpuTicks(): CpuTicks | undefined {
  try {
    return cpuTicks(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return undefined;
  }
}

/** Percent of the time between two readings, each rounded to a whole percent. */
export function cpuShares(before: CpuTicks, after: CpuTicks): CpuShares {
  // (iowait may go backwards, proc(5) says: never a negative share)
  const d = (i: number) => Math.max(0, (after[i] ?? 0) - (before[i] ?? 0));
  // user nice system idle iowait irq softirq steal (guest and guest_nice are inside user and nice)
  const parts = { user: d(0) + d(1), system: d(2) + d(5) + d(6), idle: d(3), iowait: d(4), stolen: d(7) };
  const total = Object.values(parts).reduce((a, b) => a + b, 0) || 1;
  const pct = (v: number) => Math.round((100 * v) / total);
  return { user: pct(parts.user), system: pct(parts.system), idle: pct(parts.idle), iowait: pct(parts.iowait), stolen: pct(parts.stolen) };
}

export function cpuSharesText(s: CpuShares): string {
  return `user ${s.user} %, system ${s.system} %, idle ${s.idle} %, iowait ${s.iowait} %, stolen ${s.stolen} %`;
}
