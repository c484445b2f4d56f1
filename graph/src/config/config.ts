import { z } from 'zod';
import net from 'node:net';
import path from 'node:path';

/**
 * The one place that reads process.env. Every variable is documented in .env.example.
 * Invalid values fail fast at start with the variable's name.
 */
const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: z.string().url().optional(),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  PUBLIC_ORIGIN: z.string().url().optional(),
  ALLOWED_ORIGINS: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEED_DEMO: z.enum(['auto', 'never']).default('auto'),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(120),
  SESSION_ABSOLUTE_HOURS: z.coerce.number().int().min(1).default(12),
  SESSION_REMEMBER_IDLE_DAYS: z.coerce.number().int().min(1).default(14),
  SESSION_REMEMBER_ABSOLUTE_DAYS: z.coerce.number().int().min(1).default(30),
  SESSION_SECRET: z.string().min(32).optional(),
  LOGIN_MAX_FAILURES_PER_ACCOUNT_IP: z.coerce.number().int().min(1).default(5),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(30),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(50),
  LOGIN_THROTTLE_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
  TRUST_PROXY: bool,
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_HOSTED_DOMAIN: z.string().optional(),
  GOOGLE_CERTS_URL: z.string().url().optional(),
  GOOGLE_OAUTH_REDIRECT_URL: z.string().url().optional(),
  GOOGLE_OAUTH_AUTH_URL: z.string().url().optional(),
  GOOGLE_OAUTH_TOKEN_URL: z.string().url().optional(),
  GOOGLE_OAUTH_REVOKE_URL: z.string().url().optional(),
  GOOGLE_CALENDAR_API_URL: z.string().url().optional(),
  GOOGLE_TOKEN_KEY: z
    .string()
    .regex(/^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/, '32 bytes as 64 hex characters or base64')
    .optional(),
  GOOGLE_SYNC_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(300),
  GOOGLE_SYNC_PAST_DAYS: z.coerce.number().int().min(0).max(3650).default(31),
  GOOGLE_SYNC_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  GOOGLE_QUOTA_PER_SECOND: z.coerce.number().min(0.1).default(5),
  GOOGLE_QUOTA_BURST: z.coerce.number().int().min(1).default(10),
  GOOGLE_MAX_RETRIES: z.coerce.number().int().min(0).max(20).default(5),
  GOOGLE_RETRY_BASE_MS: z.coerce.number().int().min(0).default(500),
  GOOGLE_RETRY_MAX_MS: z.coerce.number().int().min(0).default(30_000),
  BACKUP_DIR: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  BACKUP_KEEP: z.coerce.number().int().min(1).default(7),
  BACKUP_AT: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM (Asia/Tokyo)')
    .default('02:00'),
  THROTTLE_COMMENTS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  THROTTLE_LIKES_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  THROTTLE_POSTS_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  THROTTLE_UPLOADS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).default(10),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(1).default(15),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(5000),
  GRAPHQL_MAX_LIST_COST: z.coerce.number().int().min(1).default(50000),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(1).default(2000),
  GRAPHQL_INTROSPECTION: bool,
  WS_MAX_SOCKETS_PER_USER: z.coerce.number().int().min(1).default(20),
  WS_MAX_OPERATIONS_PER_SOCKET: z.coerce.number().int().min(1).default(100),
  WS_MAX_OPERATIONS_PER_USER: z.coerce.number().int().min(1).default(300),
  WS_SESSION_CHECK_MS: z.coerce.number().int().min(100).max(600_000).default(1000),
  KAFKA_BROKERS: z.string().optional(),
  KAFKA_CLIENT_ID: z.string().default('intranet'),
  KAFKA_TOPIC_PREFIX: z.string().default('intranet.'),
  KAFKA_PARTITIONS: z.coerce.number().int().min(1).max(1000).default(6),
  KAFKA_REPLICATION_FACTOR: z.coerce.number().int().min(1).max(10).default(1),
  KAFKA_SESSION_TIMEOUT_MS: z.coerce.number().int().min(6000).max(300_000).default(30_000),
  EVENT_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(5),
  EVENT_RETRY_BASE_MS: z.coerce.number().int().min(0).default(200),
  EVENT_RETRY_MAX_MS: z.coerce.number().int().min(0).default(10_000),
  RELAY_BATCH_SIZE: z.coerce.number().int().min(1).max(20_000).default(2000),
  RELAY_POLL_MS: z.coerce.number().int().min(10).default(1000),
  GRID_CACHE_MB: z.coerce.number().min(0).max(4096).default(64),
  IMPORT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(20 * 1024 * 1024),
  IMPORT_MAX_ROWS: z.coerce.number().int().min(1).default(200_000),
  IMPORT_MAX_UNCOMPRESSED_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(300 * 1024 * 1024),
  IMPORT_MAX_ZIP_ENTRIES: z.coerce.number().int().min(1).default(2000),
  IMPORT_WAIT_MS: z.coerce.number().int().min(0).default(60_000),
  // Files (attachments, pictures): a directory under DATA_DIR unless S3_BUCKET names an S3-compatible bucket.
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional(),
  S3_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*\/$/, 'letters, digits, "_", "-" or "." ending in "/" (e.g. intranet/)')
    .optional(),
  S3_CREATE_BUCKET: z.enum(['true', 'false']).default('false'),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z
    .string()
    .refine(
      (v) =>
        net.isIP(v) !== 0 ||
        /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/i.test(v),
      'an IP address (e.g. 127.0.0.1, 0.0.0.0, ::) or a host name',
    )
    .default('127.0.0.1'),
});

export type Config = z.infer<typeof schema> & {
  isProduction: boolean;
  dataDir: string;
  allowedOrigins: string[];
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const isProduction = c.NODE_ENV === 'production';
  if (isProduction && !c.SESSION_SECRET) {
    throw new Error('Invalid configuration:\n  SESSION_SECRET: required when NODE_ENV=production');
  }
  if (c.GOOGLE_CLIENT_SECRET && !c.GOOGLE_CLIENT_ID) {
    throw new Error('Invalid configuration:\n  GOOGLE_CLIENT_ID: required when GOOGLE_CLIENT_SECRET is set');
  }
  if (!c.S3_BUCKET && (c.S3_ENDPOINT || c.S3_ACCESS_KEY_ID || c.S3_PREFIX)) {
    throw new Error('Invalid configuration:\n  S3_BUCKET: required when any other S3_ setting is set');
  }
  if (!c.S3_ACCESS_KEY_ID !== !c.S3_SECRET_ACCESS_KEY) {
    throw new Error('Invalid configuration:\n  S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither');
  }
  const allowedOrigins = (c.ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (c.PUBLIC_ORIGIN) allowedOrigins.push(new URL(c.PUBLIC_ORIGIN).origin);
  return { ...c, isProduction, dataDir: path.resolve(c.DATA_DIR), allowedOrigins };
}

/** For command-line entry points: the configuration, or its error on stderr and exit code 1. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
}
