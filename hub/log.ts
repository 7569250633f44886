import pino, { type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs on stdout; tokens and passwords are redacted should they ever be logged. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: ['password', '*.password', 'tokenId', 'refreshToken', 'req.headers.authorization'],
    },
    destination,
  );
}
