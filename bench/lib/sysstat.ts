/**
 * Machine-wide CPU accounting from /proc (Linux; everything is null elsewhere), so a step's figures
 * can be read against what else was running: PostgreSQL's CPU per request, and the CPU taken by
 * processes outside the bench (other builds and tests on a shared machine); a process's peak RSS
 * over a phase (memoryWatch).
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

const TICK_MS = 10; // USER_HZ is 100 on every mainstream Linux

export interface CpuSnapshot {
  at: number;
  busyMs: number;
  stealMs: number;
  /** CPU ms of each tracked process (PostgreSQL's server processes, the bench's own). */
  procs: Map<number, number>;
}

function procCpuMs(pid: number): number | null {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS; // utime, stime
  } catch {
    return null;
  }
}

function ppidOf(pid: number): number | null {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** The postmaster and all its children (backends, checkpointer, …). */
export function postgresPids(dataDir: string): number[] {
  try {
    const master = Number(fs.readFileSync(`${dataDir}/postmaster.pid`, 'utf8').split('\n')[0]);
    const pids = [master];
    for (const d of fs.readdirSync('/proc')) {
      const pid = Number(d);
      if (pid && ppidOf(pid) === master) pids.push(pid);
    }
    return pids;
  } catch {
    return [];
  }
}

export function snapshot(pids: number[]): CpuSnapshot | null {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = line;
    const procs = new Map<number, number>();
    for (const p of pids) {
      const v = procCpuMs(p);
      if (v !== null) procs.set(p, v);
    }
    return {
      at: Date.now(),
      busyMs: (user + nice + system + irq + softirq) * TICK_MS,
      stealMs: (steal ?? 0) * TICK_MS,
      procs,
    };
  } catch {
    return null;
  }
}

/**
 * CPU ms used between two snapshots by the given pids. A process that started in between counts
 * from zero; one that exited in between is lost (its last figures are gone), so this is a floor.
 */
export function cpuBetween(a: CpuSnapshot, b: CpuSnapshot, pids: number[]): number {
  let ms = 0;
  for (const p of pids) {
    const end = b.procs.get(p);
    if (end !== undefined) ms += end - (a.procs.get(p) ?? 0);
  }
  return ms;
}

export interface MachineUse {
  /** All cores busy, % of the machine. */
  busyPct: number;
  /** Hypervisor steal, % of the machine. */
  stealPct: number;
  /** PostgreSQL CPU, % of the machine. */
  pgPct: number;
  /** Busy time not accounted to PostgreSQL, the server under test or the load generator, % of the machine. */
  otherPct: number;
}

export function machineUse(
  a: CpuSnapshot | null,
  b: CpuSnapshot | null,
  pg: number[],
  ours: number[],
): MachineUse | null {
  if (!a || !b) return null;
  const wall = (b.at - a.at) * os.cpus().length;
  if (wall <= 0) return null;
  const pgMs = cpuBetween(a, b, pg);
  const oursMs = cpuBetween(a, b, ours);
  const busy = b.busyMs - a.busyMs;
  return {
    busyPct: (busy / wall) * 100,
    stealPct: ((b.stealMs - a.stealMs) / wall) * 100,
    pgPct: (pgMs / wall) * 100,
    otherPct: (Math.max(0, busy - pgMs - oursMs) / wall) * 100,
  };
}

/** `uptime`'s line (the load averages), for a bench's log. */
export const uptime = () => {
  try {
    return execSync('uptime', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return `load average: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`;
  }
};

/** Peak RSS of a process over a phase: VmHWM reset at the start (clear_refs 5), VmRSS polled too. */
export function memoryWatch(pid: number) {
  const read = () => {
    try {
      const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(s)?.[1] ?? 0);
      return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
    } catch {
      return { rss: 0, hwm: 0 };
    }
  };
  let reset = false;
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    reset = true;
  } catch {
    /* not permitted: the polled RSS is the figure */
  }
  const start = read();
  let peak = start.rss;
  const timer = setInterval(() => (peak = Math.max(peak, read().rss)), 20);
  return {
    startMb: start.rss,
    stop: () => {
      clearInterval(timer);
      const end = read();
      return { peakMb: Math.max(peak, end.rss, reset ? end.hwm : 0), hwmReset: reset, endMb: end.rss };
    },
  };
}
