/**
 * Operator commands for accounts, run where the platform runs (or in the worker image):
 *
 *   npm run admin -- create --login <id> --name <氏名> --email <mail> [--password-stdin]
 *   npm run admin -- reset-password <login> [--password-stdin]
 *
 * `create` makes a 管理者 (the first step of a production install, where no demo data is seeded);
 * `reset-password` gives an active employee a new password and ends their sessions (the day the
 * last administrator forgets theirs). Either password is one-time: printed once (or read from
 * stdin), it must be replaced at the next sign-in. Uses DATABASE_URL, or the embedded PostgreSQL
 * on DATA_DIR (joining a running `npm start`, or starting it for the command); applies the
 * committed migrations first, so it also works before the first start.
 */
import { parseArgs } from 'node:util';
import { loadConfigOrExit, createLogger, ownSignals, migrate, openOrm, AppError } from '@intranet/graph';
import { openDatabase } from '@intranet/graph/app';
import { createAdministrator, oneTimePassword, resetPassword } from '@intranet/graph/areas';

const USAGE = `usage:
  npm run admin -- create --login <id> --name <氏名> --email <mail> [--password-stdin]
  npm run admin -- reset-password <login> [--password-stdin]

  create           a new 管理者 (refused when the login or e-mail exists)
  reset-password   a new password for an active employee; their sessions end
  --password-stdin read the password from standard input (10–256 characters) instead of
                   generating one; either way it must be changed at the next sign-in`;

function usage(message: string): never {
  console.error(`admin: ${message}\n${USAGE}`);
  process.exit(64);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      login: { type: 'string' },
      name: { type: 'string' },
      email: { type: 'string' },
      'password-stdin': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
} catch (err) {
  usage((err as Error).message);
}
const { values, positionals } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const [command, ...rest] = positionals;
if (command === 'create') {
  if (rest.length) usage(`unexpected argument(s): ${rest.join(' ')}`);
  for (const k of ['login', 'name', 'email'] as const) if (!values[k]) usage(`create needs --${k}`);
} else if (command === 'reset-password') {
  if (rest.length !== 1) usage('reset-password takes one login id');
  if (values.login || values.name || values.email)
    usage('reset-password takes the login id as its argument, and no other option but --password-stdin');
} else usage(command ? `unknown command: ${command}` : 'a command is needed');

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

const config = loadConfigOrExit();
const log = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
const password = values['password-stdin'] ? await readStdin() : oneTimePassword();
const db = await openDatabase(config, log, { attach: true });
const orm = await openOrm(db.url, 2, log);
let code = 0;
ownSignals(() => undefined); // a signal mid-command: finish, then stop the database this command started
try {
  await migrate(orm);
  const em = orm.em.fork();
  if (command === 'create') {
    const made = await createAdministrator(em, {
      loginId: values.login,
      name: values.name,
      email: values.email,
      password,
    });
    console.log(`管理者「${values.name}」を作成しました（ログインID: ${made.loginId}）。`);
  } else {
    const who = await resetPassword(em, rest[0]!, password);
    console.log(`${who.name}（ログインID: ${rest[0]}）のパスワードを再設定し、すべてのセッションを終了しました。`);
  }
  if (!values['password-stdin']) console.log(`初回パスワード（この1回だけ表示します）: ${password}`);
  console.log('次のログインで新しいパスワードへの変更が求められます。');
} catch (err) {
  if (err instanceof AppError) {
    const flag: Record<string, string> = { loginId: '--login', name: '--name', email: '--email' };
    const fields = ((err.extensions.fieldErrors as { field: string; message: string }[] | undefined) ?? []).map(
      (f) => `  ${flag[f.field] ?? f.field}: ${f.message}`,
    );
    console.error([`admin: ${err.message}`, ...fields].join('\n'));
    code = 1;
  } else {
    console.error(`admin: ${(err as Error).message}`);
    code = 2;
  }
} finally {
  await orm.close().catch(() => undefined);
  await db.embedded?.stop().catch(() => undefined);
}
process.exit(code);
