/**
 * A real S3-compatible object store for tests and benchmarks: SeaweedFS, built once from the Go
 * module proxy (no Docker) and cached outside the checkout, so every clone on the machine reuses it.
 * Without a Go toolchain new enough, the official one is fetched from the same proxy (as `go`'s
 * own toolchain switch does) into the same cache.
 *
 *   node --conditions=source --import @swc-node/register/esm-register scripts/s3/seaweedfs.ts build   # prints the binary's path
 *   … start   # prints S3_TEST_ENDPOINT=http://127.0.0.1:port (credentials: TEST_CREDENTIALS)
 *   … stop
 *
 * Options (env): S3_DIR (default .s3/run), INTRANET_TOOLS_CACHE (default ~/.cache/intranet-tools).
 * Tests import startSeaweed() to run a store of their own (fault tests stop and restart it).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePorts } from '@intranet/graph';
import { alive, portOpen, sleep, terminate } from '../lib/process.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');

const MODULE = 'github.com/seaweedfs/seaweedfs';
const VERSION = 'v0.0.0-20261109003541-7506e5f91cd6';
/** The least Go the module's go.mod asks for, and the toolchain fetched when the machine has none that new. */
const GO_MIN = [1, 26, 6] as const;
const GO_FETCH = '1.26.8';
const GOPROXY = 'https://proxy.golang.org';

/** The keys the test store accepts (SigV4 is checked: a wrong secret is refused). */
export const TEST_CREDENTIALS = { accessKeyId: 'intranet-test', secretAccessKey: 'intranet-test-secret-key' };

const cacheDir = () => process.env.INTRANET_TOOLS_CACHE || path.join(os.homedir(), '.cache', 'intranet-tools');
export const weedPath = () => path.join(cacheDir(), `seaweedfs-${VERSION}`, 'weed');

const log = (msg: string) => console.error(`s3: ${msg}`);

function goVersionOf(go: string): number[] | null {
  try {
    const v = execFileSync(go, ['env', 'GOVERSION'], {
      encoding: 'utf8',
      env: { ...process.env, GOTOOLCHAIN: 'local' },
    });
    const m = /go(\d+)\.(\d+)(?:\.(\d+))?/.exec(v);
    return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : null;
  } catch {
    return null;
  }
}

const newEnough = (v: number[]) => {
  for (let i = 0; i < 3; i++) if (v[i]! !== GO_MIN[i]) return v[i]! > GO_MIN[i];
  return true;
};

/** A `go` at least GO_MIN: the one on PATH, or the official toolchain fetched once into the cache. */
async function goToolchain(): Promise<string> {
  const onPath = goVersionOf('go');
  if (onPath && newEnough(onPath)) return 'go';
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch as string];
  if (!arch || process.platform !== 'linux')
    throw new Error(`no Go toolchain to fetch for ${process.platform}/${process.arch}`);
  const name = `v0.0.1-go${GO_FETCH}.linux-${arch}`;
  const home = path.join(cacheDir(), `go-${GO_FETCH}`);
  const go = path.join(home, 'bin', 'go');
  if (fs.existsSync(go)) return go;
  log(`fetching Go ${GO_FETCH} from ${GOPROXY} (Go on PATH: ${onPath ? onPath.join('.') : 'none'})`);
  const res = await fetch(`${GOPROXY}/golang.org/toolchain/@v/${name}.zip`);
  if (!res.ok) throw new Error(`Go ${GO_FETCH}: ${res.status} from the module proxy`);
  const staging = fs.mkdtempSync(path.join(cacheDir(), '.go-'));
  const zip = path.join(staging, 'go.zip');
  fs.writeFileSync(zip, Buffer.from(await res.arrayBuffer()));
  execFileSync('python3', ['-m', 'zipfile', '-e', zip, staging]);
  const root = path.join(staging, `golang.org/toolchain@${name}`);
  // zipfile keeps no modes: the toolchain's programs are bin/* and pkg/tool/*/*.
  for (const dir of [
    path.join(root, 'bin'),
    ...fs.readdirSync(path.join(root, 'pkg/tool')).map((d) => path.join(root, 'pkg/tool', d)),
  ])
    for (const f of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, f), 0o755);
  fs.rmSync(home, { recursive: true, force: true });
  fs.renameSync(root, home);
  fs.rmSync(staging, { recursive: true, force: true });
  return go;
}

/** The SeaweedFS binary, built once (about 4 minutes on 2 cores) and cached. */
export async function buildSeaweed(): Promise<string> {
  const bin = weedPath();
  if (fs.existsSync(bin)) return bin;
  const go = await goToolchain();
  const env = { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod' };
  log(`building SeaweedFS ${VERSION} (once; cached in ${path.dirname(bin)})`);
  const info = JSON.parse(
    execFileSync(go, ['mod', 'download', '-json', `${MODULE}@${VERSION}`], { encoding: 'utf8', env }),
  ) as { Dir: string };
  fs.mkdirSync(path.dirname(bin), { recursive: true });
  const src = fs.mkdtempSync(path.join(os.tmpdir(), 'seaweedfs-src-'));
  try {
    // `go install` refuses a module with replace directives: build it as the main module, from a writable copy.
    fs.cpSync(info.Dir, src, { recursive: true });
    execFileSync('chmod', ['-R', 'u+w', src]);
    const tmp = `${bin}.${process.pid}.tmp`;
    execFileSync(go, ['build', '-o', tmp, './weed'], { cwd: src, env, stdio: ['ignore', 'inherit', 'inherit'] });
    fs.renameSync(tmp, bin);
  } finally {
    fs.rmSync(src, { recursive: true, force: true });
  }
  return bin;
}

export interface SeaweedServer {
  endpoint: string;
  dir: string;
  pid(): number | undefined;
  /** SIGTERM, then SIGKILL after 3 s (it lingers past a SIGTERM). */
  stop(): Promise<void>;
  /** Starts again on the same ports and data. */
  restart(): Promise<void>;
}

/** Waits until the S3 port answers an authenticated request (the master, volume and filer are up). */
async function waitForS3(endpoint: string, timeoutMs: number, exited: () => boolean): Promise<void> {
  const { S3Client, ListBucketsCommand } = await import('@aws-sdk/client-s3');
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: TEST_CREDENTIALS,
    maxAttempts: 1,
  });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (exited()) throw new Error('SeaweedFS exited during start');
      try {
        await client.send(new ListBucketsCommand({}));
        return;
      } catch {
        /* not yet */
      }
      if (Date.now() > deadline) throw new Error(`SeaweedFS S3 at ${endpoint} did not answer in ${timeoutMs} ms`);
      await sleep(250);
    }
  } finally {
    client.destroy();
  }
}

/** Starts a single-process SeaweedFS (master, volume, filer, S3) on free ports; resolves when S3 answers. */
export async function startSeaweed(opts: { dir?: string } = {}): Promise<SeaweedServer> {
  const bin = await buildSeaweed();
  const dir = path.resolve(opts.dir ?? path.join(repoRoot, '.s3', 'run'));
  const pidFile = path.join(dir, 'weed.pid');
  if (fs.existsSync(pidFile)) {
    const old = Number(fs.readFileSync(pidFile, 'utf8'));
    if (old && alive(old)) throw new Error(`SeaweedFS already running in ${dir} (pid ${old}); stop it first`);
  }
  fs.rmSync(path.join(dir, 'data'), { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'data'), { recursive: true });
  const config = path.join(dir, 's3.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      identities: [
        {
          name: 'intranet-test',
          credentials: [{ accessKey: TEST_CREDENTIALS.accessKeyId, secretKey: TEST_CREDENTIALS.secretAccessKey }],
          actions: ['Admin', 'Read', 'Write', 'List', 'Tagging'],
        },
      ],
    }),
  );
  const [s3, master, volume, filer, masterGrpc, volumeGrpc, filerGrpc, s3Grpc] = await freePorts(8);
  const args = [
    'server',
    `-dir=${path.join(dir, 'data')}`,
    '-ip=127.0.0.1',
    '-ip.bind=127.0.0.1',
    `-master.port=${master}`,
    `-master.port.grpc=${masterGrpc}`,
    '-master.volumeSizeLimitMB=64',
    `-volume.port=${volume}`,
    `-volume.port.grpc=${volumeGrpc}`,
    '-volume.max=100', // each bucket grows volumes of its own at its first write
    '-volume.preStopSeconds=0', // a stop is a stop (its default lingers 10 s)
    `-filer.port=${filer}`,
    `-filer.port.grpc=${filerGrpc}`,
    '-s3',
    `-s3.port=${s3}`,
    `-s3.port.grpc=${s3Grpc}`,
    `-s3.config=${config}`,
    '-s3.port.iceberg=0', // its catalog servers are on by default, on fixed ports
    '-s3.port.lance=0',
    '-s3.autoCreateBucket=false', // as Amazon S3: a PUT into a missing bucket fails
  ];
  const endpoint = `http://127.0.0.1:${s3}`;
  let pid: number | undefined;
  const launch = async () => {
    const out = fs.openSync(path.join(dir, 'weed.log'), 'a');
    const child = spawn(bin, args, { detached: true, stdio: ['ignore', out, out] });
    fs.closeSync(out);
    child.unref();
    pid = child.pid;
    fs.writeFileSync(pidFile, String(pid));
    let exited = false;
    child.once('exit', () => (exited = true));
    await waitForS3(endpoint, 90_000, () => exited).catch((e: Error) => {
      throw new Error(`${e.message}; see ${path.join(dir, 'weed.log')}`);
    });
  };
  await launch();
  return {
    endpoint,
    dir,
    pid: () => pid,
    stop: async () => {
      await terminate(pid, 'SIGTERM', 3000);
      while (await portOpen(s3!)) await sleep(50);
      fs.rmSync(pidFile, { force: true });
    },
    restart: launch,
  };
}

/** Stops the store whose pid file is in `dir` (the CLI's and CI's). */
export async function stopSeaweed(dir = path.join(repoRoot, '.s3', 'run')): Promise<boolean> {
  const pidFile = path.join(dir, 'weed.pid');
  if (!fs.existsSync(pidFile)) return false;
  await terminate(Number(fs.readFileSync(pidFile, 'utf8')), 'SIGTERM', 10_000);
  fs.rmSync(pidFile, { force: true });
  return true;
}

async function cli(argv: string[]) {
  const cmd = argv[0] ?? 'start';
  const dir = path.resolve(process.env.S3_DIR ?? path.join(repoRoot, '.s3', 'run'));
  if (cmd === 'build') {
    console.log(await buildSeaweed());
  } else if (cmd === 'start') {
    const t0 = Date.now();
    const server = await startSeaweed({ dir });
    log(`SeaweedFS pid ${server.pid()} serving S3 at ${server.endpoint} in ${Date.now() - t0} ms (dir ${dir})`);
    console.log(`S3_TEST_ENDPOINT=${server.endpoint}`);
  } else if (cmd === 'stop') {
    log((await stopSeaweed(dir)) ? 'stopped' : 'not running');
  } else {
    console.error('usage: seaweedfs.ts build|start|stop');
    process.exit(64);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  cli(process.argv.slice(2)).catch((err) => {
    log((err as Error).message);
    process.exit(1);
  });
}
