/**
 * `npm run bench -- profiles` (also runs this): an avatar upload of a 5 MB, 24-megapixel JPEG
 * through the platform (POST /api/profile_images: base64 JSON, checked by content, decoded with the
 * pixel limit, turned, resized to a 512 px WebP and a 96 px thumbnail, both stored, the row
 * inserted) against the floor: sharp alone doing the same decode and resizes in this process, on
 * the same file, in the same run. Targets (issue 38): the upload's median under 500 ms and the
 * server's resident memory growing less than 100 MB over the uploads.
 *
 * Flags: --uploads=5.
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { DEMO_PASSWORD } from '@intranet/graph/areas';
import { MAX_IMAGE_PIXELS } from '@intranet/graph';
import { numArg, type Bench } from './lib/bench.js';
import { median } from './lib/steps.js';
import { table, ms } from './lib/format.js';
import { serverEnv, startBenchDatabase } from './lib/database.js';
import { PLATFORM_NODE_FLAGS, REPO_ROOT, startChild } from './lib/procs.js';

const MAX_BYTES = 5 * 1024 * 1024;
const TARGET_MS = 500;
const TARGET_RSS_MB = 100;

/** A 6000 × 4000 JPEG of camera-like noise, as close under 5 MB as a quality step gets it. */
async function cameraJpeg(): Promise<Buffer> {
  const raw = sharp({
    create: {
      width: 6000,
      height: 4000,
      channels: 3,
      background: { r: 120, g: 110, b: 100 },
      noise: { type: 'gaussian', mean: 120, sigma: 25 },
    },
  });
  const pixels = await raw.raw().toBuffer();
  for (let q = 60; q >= 10; q -= 5) {
    const jpeg = await sharp(pixels, { raw: { width: 6000, height: 4000, channels: 3 } })
      .jpeg({ quality: q })
      .toBuffer();
    if (jpeg.length <= MAX_BYTES - 4096) return jpeg;
  }
  throw new Error('could not make a JPEG under 5 MB');
}

/** What the server does with the pixels, without the server (the floor). */
async function floor(bytes: Buffer): Promise<number> {
  const t0 = performance.now();
  const display = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
    .autoOrient()
    .resize({ width: 512, height: 512, fit: 'cover' })
    .webp({ quality: 82 })
    .toBuffer();
  await sharp(display).resize({ width: 96, height: 96, fit: 'cover' }).webp({ quality: 80 }).toBuffer();
  return performance.now() - t0;
}

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

const bench: Bench = {
  description: 'Avatar upload of a 5 MB, 24-megapixel JPEG through the platform against sharp alone',
  async run({ args, log }) {
    const uploads = numArg(args, 'uploads', 5);
    const jpeg = await cameraJpeg();
    log(`file: 6000 × 4000 JPEG, ${(jpeg.length / 1024 / 1024).toFixed(2)} MB`);
    const db = await startBenchDatabase();
    const server = await startChild('graph server', `${REPO_ROOT}/bench/lib/graph-server.ts`, serverEnv(db), {
      execArgv: PLATFORM_NODE_FLAGS,
      compiled: true,
    });
    try {
      const url = String(server.ready.url);
      const pid = Number(server.ready.pid);
      const login = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ loginId: 'admin', password: DEMO_PASSWORD }),
      });
      const token = ((await login.json()) as { token: string }).token;
      const body = JSON.stringify({
        kind: 'avatar',
        name: 'camera.jpg',
        data_url: `data:image/jpeg;base64,${jpeg.toString('base64')}`,
      });
      const upload = async () => {
        const t0 = performance.now();
        const r = await fetch(`${url}/api/profile_images`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body,
        });
        if (r.status !== 201) throw new Error(`upload: ${r.status} ${await r.text()}`);
        await r.arrayBuffer();
        return performance.now() - t0;
      };
      await upload(); // warm: the first request loads sharp's and the route's code
      await floor(jpeg);
      const rssBefore = rssMb(pid);
      let rssPeak = rssBefore;
      const poll = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(pid))), 10);
      const full: number[] = [];
      try {
        for (let i = 0; i < uploads; i++) full.push(await upload());
      } finally {
        clearInterval(poll);
      }
      const bare: number[] = [];
      for (let i = 0; i < uploads; i++) bare.push(await floor(jpeg));
      const f = median(full);
      const b = median(bare);
      const growth = rssPeak - rssBefore;
      log(
        table(
          ['', 'median ms', 'min', 'max'],
          [
            ['platform (POST /api/profile_images)', ms(f), ms(Math.min(...full)), ms(Math.max(...full))],
            ['floor (sharp alone, same resizes)', ms(b), ms(Math.min(...bare)), ms(Math.max(...bare))],
          ],
        ),
      );
      log(`server RSS: ${rssBefore.toFixed(0)} MB before, peak ${rssPeak.toFixed(0)} MB (+${growth.toFixed(0)} MB)`);
      const pass = f < TARGET_MS && growth < TARGET_RSS_MB;
      const headline = `upload median ${ms(f)} ms (target < ${TARGET_MS}), floor ${ms(b)} ms = ${(f / b).toFixed(2)}×; RSS +${growth.toFixed(0)} MB (target < ${TARGET_RSS_MB}) ${pass ? 'PASS' : 'FAIL'}`;
      log(headline);
      return {
        pass,
        headline,
        results: { fileBytes: jpeg.length, uploads, fullMs: full, floorMs: bare, rssBefore, rssPeak },
      };
    } finally {
      await server.stop();
    }
  },
};

export default bench;
