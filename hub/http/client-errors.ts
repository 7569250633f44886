/**
 * Requests Node's HTTP parser refuses before express sees them (CONTRACT §12): headers or a URL
 * too large get 431, a malformed request line or header 400, a request that never finished arriving
 * 408 — as problem+json like every other error, not Node's bare status line. Where the socket is
 * already gone (the client hung up) nothing can be answered.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

const TITLES: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

function statusOf(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = statusOf(err.code);
    const title = TITLES[status];
    const traceId = randomUUID();
    const detail =
      status === 431
        ? 'The request headers or URL are too large (at most 16 KiB together).'
        : status === 408
          ? 'The request did not arrive in time.'
          : `The request is not valid HTTP (${err.code ?? 'parse error'}).`;
    const body = JSON.stringify({ type: `https://poshub.local/problems/${status}-3`, title, status, detail, instance: null, traceId, errorCode: 3 });
    socket.end(
      `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${traceId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
