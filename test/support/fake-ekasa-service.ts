/**
 * The simulated PORTOS eKasa service (drivers/fiscal/ekasa/service.ts) as a real HTTP server on
 * 127.0.0.1, for driver and hub tests: it can go offline (registering with OKP only), refuse the next
 * receipt as the service does, or lose its answer after registering (the connection drops).
 */
import { createServer, type Server } from 'node:http';
import { SimulatedEkasaService } from '../../drivers/fiscal/ekasa/service.js';

export class FakeEkasaService {
  readonly service: SimulatedEkasaService;
  /** The next `n` registrations are made, then their connection is dropped without an answer. */
  loseAnswers = 0;
  /** Every answer waits this long (a slow service; past the driver's TimeoutMs it is a lost answer). */
  delayMs = 0;
  /** Off: connections are refused. */
  private server: Server | null = null;
  private port = 0;

  constructor(clock?: () => Date) {
    this.service = new SimulatedEkasaService('fake', undefined, clock);
  }

  async listen(port = 0): Promise<string> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          res.writeHead(400, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ title: 'Malformed JSON', status: 400, errorCode: -900 }));
          return;
        }
        const answer = this.service.handle(req.method ?? 'GET', req.url ?? '/', body);
        const send = () => {
          if (req.method === 'POST' && answer.status < 300 && this.loseAnswers > 0) {
            this.loseAnswers -= 1;
            req.socket.destroy();
            return;
          }
          res.writeHead(answer.status, { 'content-type': answer.status < 300 ? 'application/json; charset=utf-8' : 'application/problem+json' }).end(JSON.stringify(answer.body));
        };
        if (this.delayMs > 0) setTimeout(send, this.delayMs);
        else send();
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
    this.server = server;
    this.port = (server.address() as { port: number }).port;
    return this.address;
  }

  /** Back to a healthy, online service (the registrations stay). */
  reset(): void {
    this.service.online = true;
    this.service.refuseNext = null;
    this.loseAnswers = 0;
    this.delayMs = 0;
  }

  get address(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Switched off (connections refused) or on again at the same port. */
  async setPower(on: boolean): Promise<void> {
    if (!on && this.server) {
      const s = this.server;
      this.server = null;
      s.closeAllConnections();
      await new Promise<void>((r) => s.close(() => r()));
    } else if (on && !this.server) await this.listen(this.port);
  }

  close(): Promise<void> {
    return this.setPower(false);
  }
}
