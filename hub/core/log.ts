import pino, { type Logger } from 'pino';

export type { Logger };

let stdoutGuarded = false;

/**
 * Structured JSON logs on stdout; tokens and passwords are redacted should they ever be logged.
 * A log reader that goes away (a restarted journal, a closed pipe) must not stop the hub: stdout is
 * written synchronously, because pino's asynchronous stream flushes at exit in a loop that retries a
 * broken pipe forever (the hub hung instead of exiting), and a broken pipe on stdout is ignored
 * instead of crashing the process.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  if (!destination && !stdoutGuarded) {
    stdoutGuarded = true;
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
    });
  }
  return pino(
    {
      level,
      base: undefined,
      redact: ['password', '*.password', 'tokenId', 'refreshToken', 'req.headers.authorization'],
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}
