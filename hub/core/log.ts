import pino, { type Logger } from 'pino';

export type { Logger };

let stdoutGuarded = false;

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/**
 * One JSON log line as a person reads it on a terminal: local time, level, message, then the other
 * fields as key=value (`err` as its message). A line that is not JSON is passed through.
 */
export function prettyLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const { time, level, msg, ...fields } = entry;
  const at = typeof time === 'number' ? new Date(time).toTimeString().slice(0, 8) : '--:--:--';
  const label = (typeof level === 'number' && LEVELS[level]) || String(level);
  const rest = Object.entries(fields).map(([key, value]) => {
    if (key === 'err' && value && typeof value === 'object' && 'message' in value) return `err=${JSON.stringify((value as { message: unknown }).message)}`;
    return `${key}=${JSON.stringify(value)}`;
  });
  return `${at} ${label.padEnd(5)} ${String(msg ?? '')}${rest.length ? `  ${rest.join(' ')}` : ''}\n`;
}

/**
 * Structured JSON logs on stdout; tokens, passwords, PINs and register keys are redacted should they ever be logged.
 * On a terminal (a person ran `npm start`) the lines are written readably instead, so they sit with
 * the human start text rather than as JSON between its lines; a service manager or a pipe gets JSON.
 * A log reader that goes away (a restarted journal, a closed pipe) must not stop the hub: stdout is
 * written synchronously, because pino's asynchronous stream flushes at exit in a loop that retries a
 * broken pipe forever (the hub hung instead of exiting), and a broken pipe on stdout is ignored
 * instead of crashing the process.
 */
export function createLogger(level: string, destination?: pino.DestinationStream, terminal = !destination && process.stdout.isTTY === true): Logger {
  if (!destination && !stdoutGuarded) {
    stdoutGuarded = true;
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
    });
  }
  const out = destination ?? pino.destination({ dest: 1, sync: true });
  return pino(
    {
      level,
      base: undefined,
      redact: ['password', '*.password', 'pin', '*.pin', 'deviceKey', '*.deviceKey', 'tokenId', 'refreshToken', 'req.headers.authorization', 'req.headers["x-register-key"]'],
    },
    terminal ? { write: (line: string) => out.write(prettyLine(line)) } : out,
  );
}
