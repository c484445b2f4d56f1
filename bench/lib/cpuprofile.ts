/**
 * Summarises a V8 .cpuprofile: self time by package/area and the hottest functions.
 * The profiler samples wall time on the JS thread: when a socket write wakes PostgreSQL (or the load
 * generator) and the kernel lets it run first, that time is booked to the write. On a busy 2-core
 * machine "(socket write syscalls)" is therefore mostly time spent waiting, not this process's CPU;
 * the per-request CPU figure from process.cpuUsage() is the one to compare.
 */
import fs from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; scriptId?: string | number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: an npm package, this repo's source, Node internals or a V8 pseudo-frame. */
export function areaOf(url: string, fn: string, scriptId?: string | number): string {
  if (!url) {
    if (fn.startsWith('(')) return fn;
    if (/^(write|writev|writeBuffer|writeUtf8String|writeLatin1String)$/.test(fn)) return '(socket write syscalls)';
    // Code compiled at run time (new Function): graphql-jit's generated executors.
    return scriptId !== undefined && String(scriptId) !== '0' ? '(generated code: graphql-jit)' : '(native)';
  }
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const m = url.match(/\/(graph|bench|schema)\/src\/|\/(graph|bench|schema)\//);
  if (m) return `repo:${m[1] ?? m[2]}`;
  return url;
}

export interface ProfileSummary {
  totalMs: number;
  busyMs: number;
  byArea: { area: string; ms: number; pctBusy: number }[];
  topFunctions: { fn: string; area: string; ms: number; pctBusy: number }[];
}

export function summariseProfile(file: string, top = 25): ProfileSummary {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const self = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++)
    self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
  const byArea = new Map<string, number>();
  const byFn = new Map<string, { area: string; us: number }>();
  // The profiler's own Profiler.stop (inspector Session.post → native dispatch) books the wait for the
  // profile to it: not the server's work, so it counts as idle.
  const profilerPost = new Set(
    p.nodes
      .filter((n) => n.callFrame.functionName === 'post' && n.callFrame.url === 'node:inspector')
      .flatMap((n) => n.children ?? []),
  );
  let total = 0;
  let idle = 0;
  for (const n of p.nodes) {
    const us = self.get(n.id) ?? 0;
    if (!us) continue;
    total += us;
    const { functionName, url, lineNumber } = n.callFrame;
    if (functionName === '(idle)' || profilerPost.has(n.id)) {
      idle += us;
      continue;
    }
    const area = areaOf(url, functionName, n.callFrame.scriptId);
    byArea.set(area, (byArea.get(area) ?? 0) + us);
    const short = url ? url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(graph|bench)\//, '$1/') : '';
    const key = `${functionName || '(anonymous)'} ${short}:${lineNumber + 1}`;
    const e = byFn.get(key) ?? { area, us: 0 };
    e.us += us;
    byFn.set(key, e);
  }
  const busy = total - idle;
  return {
    totalMs: total / 1000,
    busyMs: busy / 1000,
    byArea: [...byArea]
      .map(([area, us]) => ({ area, ms: us / 1000, pctBusy: (us / busy) * 100 }))
      .sort((a, b) => b.ms - a.ms),
    topFunctions: [...byFn]
      .map(([fn, e]) => ({ fn, area: e.area, ms: e.us / 1000, pctBusy: (e.us / busy) * 100 }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, top),
  };
}
