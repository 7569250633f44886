/**
 * Listening, for the hub and for HQ (CONTRACT §12 "Start-up"): resolves only once the server
 * listens, and a failure rejects with the cause and the variables that chose the address. Not
 * express's app.listen(): express 5 calls its callback on a failed listen too, so a taken port was
 * reported as "listening" and the process then ran on without serving, or ended with 0.
 */
import type { Server } from 'node:http';

export function listen(server: Server, port: number, host: string, names: { port: string; host: string }): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (e: NodeJS.ErrnoException) =>
      reject(
        new Error(
          e.code === 'EADDRINUSE'
            ? `port ${port} on ${host} is already in use (${names.port})`
            : `cannot listen on ${host}:${port} (${names.host}, ${names.port}): ${e.message}`,
        ),
      );
    server.once('error', failed);
    server.listen(port, host, () => {
      server.removeListener('error', failed);
      resolve();
    });
  });
}
