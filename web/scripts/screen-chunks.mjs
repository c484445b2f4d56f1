// Chunks by screen rather than by module. Left to the automatic splitting, each Primer component
// and icon shared by two screens is a chunk of its own: the shell and /schedules/sp loaded about 60,
// and a phone's main thread spent milliseconds on each (the chunk loader's <link>, the request, the
// module). So the build runs twice (scripts/build.mjs): a first build, not written, tells which
// modules the automatic chunks of the sign-in page and of the shell hold (after tree-shaking, which
// a module graph alone cannot tell: Primer's index re-exports every component); the real build puts
// them in one chunk each: `login` (the sign-in page's chunks less the entry's) and `shell` (the
// shell's less the entry's and the sign-in page's). A module of either imports only modules of its
// own group, of the groups before it or of the entry (each set is its screen's whole import
// closure), so the chunks' execution order is the modules' own.

/** The chunks `file` loads with it: itself and its static imports, recursively. */
function closure(chunks, file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const dep of chunks.get(file)?.imports ?? []) closure(chunks, dep, seen);
  return seen;
}

/**
 * The plan from the first build's output: the module ids each group takes. `login` and `shell`
 * are the screens' source files (relative to the web folder).
 */
export function planScreenChunks(output, { login, shell }) {
  const chunks = new Map(output.filter((o) => o.type === 'chunk').map((c) => [c.fileName, c]));
  const byModule = (rel) => [...chunks.values()].find((c) => c.facadeModuleId?.endsWith(`/${rel}`))?.fileName;
  const entry = [...chunks.values()].find((c) => c.isEntry)?.fileName;
  const loginFile = byModule(login);
  const shellFile = byModule(shell);
  if (!entry || !loginFile || !shellFile)
    throw new Error(
      `screen-chunks: no chunk for ${[!entry && 'the entry', !loginFile && login, !shellFile && shell].filter(Boolean).join(', ')}`,
    );
  const first = closure(chunks, entry);
  const loginFiles = [...closure(chunks, loginFile)].filter((f) => !first.has(f));
  const shellFiles = [...closure(chunks, shellFile)].filter((f) => !first.has(f) && !loginFiles.includes(f));
  // The screens' own modules stay their chunks' facades (the manifest names their chunks, scripts/prerender.mjs reads it).
  const facades = new Set([chunks.get(loginFile).facadeModuleId, chunks.get(shellFile).facadeModuleId]);
  const ids = (files) => files.flatMap((f) => chunks.get(f).moduleIds).filter((id) => !facades.has(id));
  return { login: ids(loginFiles), shell: ids(shellFiles) };
}

/** The `codeSplitting` option of the real build, from a plan (none: the automatic splitting). */
export function screenChunkGroups(plan) {
  if (!plan) return undefined;
  const login = new Set(plan.login);
  const shell = new Set(plan.shell);
  return {
    groups: [
      { name: 'login', test: (id) => login.has(id), priority: 2, includeDependenciesRecursively: false },
      { name: 'shell', test: (id) => shell.has(id), priority: 1, includeDependenciesRecursively: false },
    ],
  };
}
