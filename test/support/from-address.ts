/**
 * A JSON POST from a chosen loopback source address (127.0.0.x): another machine of the shop's LAN,
 * as the hub sees it (the whole of 127/8 is loopback on Linux). For throttles that count per address.
 */
import { request } from 'node:http';

export function postFrom(url: string, from: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Record<string, string | string[] | undefined> }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      { method: 'POST', localAddress: from, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined, headers: res.headers });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
