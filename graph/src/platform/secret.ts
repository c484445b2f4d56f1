import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';

/** SESSION_SECRET, or (outside production) a random one kept in DATA_DIR so restarts keep it. */
export function sessionSecret(config: Config): Buffer {
  if (config.SESSION_SECRET) return Buffer.from(config.SESSION_SECRET);
  const file = path.join(config.dataDir, 'session-secret');
  if (fs.existsSync(file)) return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  fs.mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32);
  fs.writeFileSync(file, secret.toString('base64'), { mode: 0o600 });
  return secret;
}
