/** Small helpers the scripts that run a local server (Kafka, the S3 store) share. */
import net from 'node:net';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether something accepts connections on 127.0.0.1:port. */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1' });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Sends the signal, waits up to graceMs for the process to go, then SIGKILLs it. */
export async function terminate(pid: number | undefined, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (!pid || !alive(pid)) return;
  process.kill(pid, signal);
  const deadline = Date.now() + graceMs;
  while (alive(pid) && Date.now() < deadline) await sleep(100);
  if (alive(pid)) process.kill(pid, 'SIGKILL');
  while (alive(pid)) await sleep(50);
}
