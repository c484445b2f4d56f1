import { pino, type Logger } from 'pino';

/** Structured JSON logs. Secrets (passwords, tokens, cookies) are redacted wherever they appear. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'intranet' },
    redact: {
      paths: [
        'password',
        '*.password',
        'token',
        '*.token',
        'req.headers.cookie',
        'req.headers.authorization',
        'variables.password',
        'variables.input.password',
      ],
      censor: '[redacted]',
    },
  });
}

export type { Logger };
