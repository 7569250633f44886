/**
 * The simulated PORTOS eKasa service (drivers/fiscal/ekasa/service.ts) as a real HTTP server on
 * 127.0.0.1, for driver and hub tests. Besides what the service itself can be told (offline, a
 * refusal before storage, a failure after storage, `isSuccessful: false`), the wire can misbehave:
 * the answer to a registration is lost after the service stored it (the connection drops), held
 * until released (a hub stopped mid-close), replaced by a malformed one, or slow.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { SimulatedEkasaService } from '../../drivers/fiscal/ekasa/service.js';

export class FakeEkasaService {
  readonly service: SimulatedEkasaService;
  /** The next `n` registrations are made, then their connection is dropped without an answer. */
  loseAnswers = 0;
  /** The next registration's answer (after it was made) is replaced: its status and raw body text. */
  malformNext: ((answer: { status: number; body: unknown }) => { status: number; text: string; type?: string; headers?: Record<string, string> }) | null = null;
  /** The next `n` lookups fail with a 503 problem (the service cannot read its storage just now). */
  failLookups = 0;
  /** Answers to registrations wait until `release()` (or are dropped when the service stops). */
  holdAnswers = false;
  /** Registrations wait before they reach the service (nothing stored) until `release()`, or are dropped. */
  holdRequests = false;
  /** The next registration's connection drops at once, and the request reaches the service this many ms later (stored late). */
  arriveLateMs = 0;
  /** Every answer to a registration waits this long (a slow printer; past the driver's TimeoutMs it is a lost answer). */
  delayMs = 0;
  /**
   * The next registration reaches the service this many ms late over a connection kept open (a service
   * busy before it stores anything), and is answered then; `late` settles once it has been handled.
   */
  storeAfterMs = 0;
  late: Promise<void> = Promise.resolve();
  /** The path and query of every request, in order. */
  readonly requests: string[] = [];
  /** The HTTP status of every answer to a registration that went out (not lost, not malformed), in order. */
  readonly registrationStatuses: number[] = [];
  private held: Array<() => void> = [];
  private server: Server | null = null;
  private port = 0;

  constructor(clock?: () => Date) {
    this.service = new SimulatedEkasaService('fake', undefined, clock);
  }

  async listen(port = 0): Promise<string> {
    const server = createServer((req, res) => this.serve(req, res));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
    this.server = server;
    this.port = (server.address() as { port: number }).port;
    return this.address;
  }

  private serve(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.requests.push(`${req.method} ${req.url}`);
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        res.writeHead(400, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ title: 'Malformed JSON', status: 400, errorCode: -900 }));
        return;
      }
      if (req.method === 'GET' && req.url?.startsWith('/api/v1/requests/receipts/receipt') && this.failLookups > 0) {
        this.failLookups -= 1;
        res.writeHead(503, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ title: 'Service unavailable', status: 503 }));
        return;
      }
      const registration = req.method === 'POST';
      if (registration && this.arriveLateMs > 0) {
        const ms = this.arriveLateMs;
        this.arriveLateMs = 0;
        req.socket.destroy();
        setTimeout(() => this.service.handle('POST', req.url ?? '/', body), ms);
        return;
      }
      if (registration && this.storeAfterMs > 0) {
        const ms = this.storeAfterMs;
        this.storeAfterMs = 0;
        this.late = new Promise((resolve) =>
          setTimeout(() => {
            this.answer(req, res, body);
            resolve();
          }, ms),
        );
        return;
      }
      if (registration && this.holdRequests) {
        this.held.push(() => this.answer(req, res, body));
        return;
      }
      this.answer(req, res, body);
    });
  }

  /** The service handles the request; its answer goes out as the wire is told to behave. */
  private answer(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    const answer = this.service.handle(req.method ?? 'GET', req.url ?? '/', body);
    const registration = req.method === 'POST';
    const send = () => {
      if (registration && answer.status < 300 && this.loseAnswers > 0) {
        this.loseAnswers -= 1;
        req.socket.destroy();
        return;
      }
      if (registration && this.malformNext) {
        const m = this.malformNext(answer);
        this.malformNext = null;
        res.writeHead(m.status, { 'content-type': m.type ?? 'application/json; charset=utf-8', ...m.headers }).end(m.text);
        return;
      }
      if (registration) this.registrationStatuses.push(answer.status);
      if (answer.body === null) res.writeHead(answer.status).end();
      else res.writeHead(answer.status, { 'content-type': answer.status < 300 ? 'application/json; charset=utf-8' : 'application/problem+json' }).end(JSON.stringify(answer.body));
    };
    if (registration && this.holdAnswers) this.held.push(send);
    else if (registration && this.delayMs > 0) setTimeout(send, this.delayMs);
    else send();
  }

  /** Lets what was held go on: held requests reach the service, held answers go out. */
  release(): void {
    const held = this.held;
    this.held = [];
    for (const send of held) send();
  }

  /** Back to a healthy, online service with a ready printer (the registrations stay). */
  reset(): void {
    Object.assign(this.service, { online: true, chdu: true, refuseNext: null, failAfterStoringNext: null, rejectOnlineNext: null });
    this.service.printer = { state: 'Ready', paperState: 'Ready' };
    this.loseAnswers = 0;
    this.failLookups = 0;
    this.malformNext = null;
    this.holdAnswers = false;
    this.holdRequests = false;
    this.arriveLateMs = 0;
    this.held = [];
    this.delayMs = 0;
    this.storeAfterMs = 0;
  }

  get address(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Switched off (connections refused, held answers dropped) or on again at the same port. */
  async setPower(on: boolean): Promise<void> {
    if (!on && this.server) {
      const s = this.server;
      this.server = null;
      this.held = [];
      s.closeAllConnections();
      await new Promise<void>((r) => s.close(() => r()));
    } else if (on && !this.server) await this.listen(this.port);
  }

  close(): Promise<void> {
    return this.setPower(false);
  }
}
