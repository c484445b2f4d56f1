import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository's root (the directory whose package.json declares the workspaces), found from a
 * module's URL. The same code runs from its TypeScript source and compiled into dist/ (one level
 * deeper), so paths to web/dist and the like are never counted in `..`s.
 */
export function repoRoot(moduleUrl: string): string {
  let dir = path.dirname(fileURLToPath(moduleUrl));
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg) && 'workspaces' in (JSON.parse(fs.readFileSync(pkg, 'utf8')) as object)) return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no workspace root above ${fileURLToPath(moduleUrl)}`);
    dir = up;
  }
}
