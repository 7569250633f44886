/**
 * Where a ticket write's WAL bytes go (issue 31): starts the hub on a copy of a store, makes ticket
 * writes one at a time (the bench's 5-item create, or an update adding an item), reads the WAL
 * frames each one appended and names the table or index of every page with SQLite's `dbstat`.
 * A measurement, not a test.
 *   npx tsx scripts/wal-per-write.ts [--store=scripts/bench/.store-1000000] [--writes=20] [--write=create|update]
 *                                    [--data-dir=DIR] [--json=FILE]
 * Without --data-dir the store's hub.sqlite is copied next to it first and the copy removed after;
 * with it, DIR (a copy of a store you made, holding hub.sqlite) is used and changed as it is — the
 * hub migrates it and the writes stay in it. The bench's store itself is never written.
 *
 * Each write's frames are split into their commits (a commit ends at the frame that carries the
 * database size). The write's own commit is the one with a page of `tickets`; the others in its
 * window are the hub's background work (the print queue's bookkeeping, say) and are shown apart.
 * A page is counted once per commit, as SQLite writes it: a B-tree an insert touches costs at least
 * one page (4 KiB + a 24-byte frame header) per commit, however small the entry.
 */
import { copyFileSync, existsSync, mkdtempSync, openSync, readSync, closeSync, rmSync, statSync, writeFileSync, fstatSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_CASHIER } from './generate-store.js';
import { benchTicketBody } from './bench/ticket-body.js';
import { startHubProcess } from '../test/support/process.js';
import { closeDb, openDb } from '../db/client.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=').slice(1).join('=');
const STORE = resolve(ROOT, option('store') ?? 'scripts/bench/.store-1000000');
const WRITES = Number(option('writes') ?? 20);
const WRITE = (option('write') ?? 'create') as 'create' | 'update';
const DATA_DIR = option('data-dir');
const JSON_OUT = option('json');
/** Writes made before the measured ones: the hub's caches and the OS page cache settle. */
const WARM_UP = 5;
const say = (s: string) => process.stdout.write(`${s}\n`);

interface WalState {
  salt1: number;
  salt2: number;
  pageSize: number;
  /** Byte offset just past the last valid commit frame. */
  end: number;
}

interface Commit {
  pages: number[];
}

/** Reads the WAL's header and the valid frames from `from` on (0: from the first), split into commits. */
function readWal(file: string, from?: WalState): { state: WalState; commits: Commit[]; restarted: boolean } | undefined {
  if (!existsSync(file) || statSync(file).size < 32) return undefined;
  const fd = openSync(file, 'r');
  try {
    const header = Buffer.alloc(32);
    readSync(fd, header, 0, 32, 0);
    const pageSize = header.readUInt32BE(8);
    const salt1 = header.readUInt32BE(16);
    const salt2 = header.readUInt32BE(20);
    const restarted = !from || from.salt1 !== salt1 || from.salt2 !== salt2;
    let at = restarted ? 32 : from.end;
    const size = fstatSync(fd).size;
    const frameHeader = Buffer.alloc(24);
    const commits: Commit[] = [];
    let open: number[] = [];
    let end = at;
    for (; at + 24 + pageSize <= size; at += 24 + pageSize) {
      readSync(fd, frameHeader, 0, 24, at);
      // A frame of an earlier generation of the log (not yet overwritten) carries other salts: the end.
      if (frameHeader.readUInt32BE(8) !== salt1 || frameHeader.readUInt32BE(12) !== salt2) break;
      open.push(frameHeader.readUInt32BE(0));
      if (frameHeader.readUInt32BE(4) !== 0) {
        commits.push({ pages: open });
        open = [];
        end = at + 24 + pageSize;
      }
    }
    return { state: { salt1, salt2, pageSize, end }, commits, restarted };
  } finally {
    closeSync(fd);
  }
}

async function main(): Promise<void> {
  let dataDir: string;
  let scratch: string | undefined;
  if (DATA_DIR) {
    dataDir = resolve(DATA_DIR);
    if (/[/\\]scripts[/\\]bench[/\\]\.store-\d+$/.test(dataDir)) throw new Error(`--data-dir=${dataDir} is the bench's store: give a copy of it`);
    if (!existsSync(join(dataDir, 'hub.sqlite'))) throw new Error(`no hub.sqlite in ${dataDir}`);
  } else {
    if (!existsSync(join(STORE, 'hub.sqlite'))) throw new Error(`no store at ${STORE} (npm run bench makes one; or give --store=DIR)`);
    if (existsSync(join(STORE, 'hub.sqlite-wal')) && statSync(join(STORE, 'hub.sqlite-wal')).size > 0) {
      throw new Error(`${STORE} has a WAL: a hub is using it, or one did not stop cleanly (start and stop a hub on it first)`);
    }
    scratch = mkdtempSync(join(dirname(STORE), '.wal-per-write-'));
    dataDir = scratch;
    const t0 = performance.now();
    copyFileSync(join(STORE, 'hub.sqlite'), join(dataDir, 'hub.sqlite'));
    say(`Copied ${STORE}/hub.sqlite to ${dataDir} in ${Math.round((performance.now() - t0) / 1000)} s.`);
  }
  const walFile = join(dataDir, 'hub.sqlite-wal');
  const hub = await startHubProcess(
    { POS_HUB_RATE_LIMIT: '0', POS_HUB_BACKUP_EVERY: '0', POS_HUB_TIMEZONE: 'Europe/Bratislava', POS_HUB_ADMIN_PASSWORD: undefined },
    { dataDir },
  );
  /** Per measured write: the commits its window saw; whether the log began again in it. */
  const windows: Array<{ commits: Commit[]; restarted: boolean }> = [];
  let pageSize = 4096;
  try {
    const token = await hub.login(BENCH_CASHIER.userName, BENCH_CASHIER.password, 'Register1');
    const post = async () => {
      const r = await hub.call('POST', '/api/tickets', benchTicketBody([11, 22, 33, 44, 55]), { token });
      if (r.status !== 201 && r.status !== 200) throw new Error(`POST /api/tickets: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body as { id: string };
    };
    // An update adds an item to a ticket of its own, each ticket once (a fresh one each time).
    const pool = WRITE === 'update' ? await Promise.all(Array.from({ length: WRITES * 2 + WARM_UP }, () => post())) : [];
    let u = 0;
    const write = async () => {
      if (WRITE === 'create') return void (await post());
      const t = pool[u++];
      const codes = [11, 22, 33, 44, 55, 66];
      const r = await hub.call('PUT', `/api/tickets/${t.id}`, benchTicketBody(codes), { token });
      if (r.status !== 200) throw new Error(`PUT /api/tickets/${t.id}: ${r.status} ${JSON.stringify(r.body)}`);
    };
    for (let i = 0; i < WARM_UP; i++) await write();
    while (windows.length < WRITES) {
      await new Promise((r) => setTimeout(r, 20));
      const before = readWal(walFile)?.state;
      await write();
      const after = readWal(walFile, before);
      if (!after) throw new Error(`no WAL at ${walFile}`);
      pageSize = after.state.pageSize;
      windows.push({ commits: after.commits, restarted: !!before && after.restarted });
    }
  } finally {
    await hub.stop();
  }

  // The owner of every page, as the file is now (the hub checkpointed the WAL into it at its stop).
  const file = openDb(join(dataDir, 'hub.sqlite'), { readonly: true });
  const db = file.$client;
  const owner = new Map<number, string>();
  const tableOf = new Map<string, string>();
  try {
    for (const r of db.prepare('SELECT pageno, name FROM dbstat').all() as Array<{ pageno: number; name: string }>) owner.set(r.pageno, r.name);
    for (const r of db.prepare("SELECT name, tbl_name FROM sqlite_schema WHERE type IN ('table', 'index')").all() as Array<{ name: string; tbl_name: string }>) {
      tableOf.set(r.name, r.tbl_name);
    }
  } finally {
    closeDb(file);
  }
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  const nameOf = (page: number) => (page === 1 ? 'page 1 (file header)' : (owner.get(page) ?? 'free now (freelist)'));

  // The log began again in some windows (the checkpointer had emptied it): the write's commit is in the
  // new generation when the write itself began it; when a later commit did, the write's frames may be
  // overwritten already, and such a window is left out.
  const measured = windows.filter((w) => !w.restarted || w.commits.some((c) => c.pages.some((p) => owner.get(p) === 'tickets')));
  const left = windows.length - measured.length;
  // Tally: pages of the write's own commit, and of the other commits in its window.
  const own = new Map<string, number>();
  const other = new Map<string, number>();
  let ownCommits = 0;
  let otherCommits = 0;
  let missing = 0;
  for (const { commits } of measured) {
    const mine = commits.find((c) => c.pages.some((p) => owner.get(p) === 'tickets'));
    if (!mine) missing++;
    for (const c of commits) {
      const into = c === mine ? own : other;
      if (c === mine) ownCommits++;
      else otherCommits++;
      for (const p of c.pages) into.set(nameOf(p), (into.get(nameOf(p)) ?? 0) + 1);
    }
  }
  const n = measured.length;
  const frameBytes = pageSize + 24;
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const rows = [...new Set([...own.keys(), ...other.keys()])]
    .map((name) => ({ name, table: tableOf.get(name) ?? '', own: (own.get(name) ?? 0) / n, other: (other.get(name) ?? 0) / n }))
    .sort((a, b) => b.own + b.other - (a.own + a.other) || a.name.localeCompare(b.name));
  const f = (x: number) => x.toFixed(2).padStart(8);
  say(`\nWAL pages per ticket ${WRITE} (${WRITE === 'create' ? "the bench's 5-item body" : 'a sixth item added to a 5-item ticket'}), ${n} writes one at a time, page ${pageSize} B (+24 B frame header)` + (left ? `; ${left} more left out (the log restarted after the write)` : '') + ':');
  say(`${'object'.padEnd(36)} ${'table'.padEnd(14)} ${'write'.padStart(8)} ${'other'.padStart(8)}`);
  for (const r of rows) say(`${r.name.padEnd(36)} ${r.table.padEnd(14)} ${f(r.own)} ${f(r.other)}`);
  const ownPages = sum(own) / n;
  const otherPages = sum(other) / n;
  say(`${'total pages'.padEnd(36)} ${''.padEnd(14)} ${f(ownPages)} ${f(otherPages)}`);
  say(`${'KiB'.padEnd(36)} ${''.padEnd(14)} ${f((ownPages * frameBytes) / 1024)} ${f((otherPages * frameBytes) / 1024)}`);
  say(`write: the write's own commit (${ownCommits / n} per write); other: the other commits in its window (${otherCommits} in all: the hub's background work).`);
  if (missing) say(`${missing} of ${n} windows had no commit with a page of tickets.`);
  if (JSON_OUT) {
    writeFileSync(JSON_OUT, JSON.stringify({ write: WRITE, writes: n, pageSize, ownPages, otherPages, ownKiB: (ownPages * frameBytes) / 1024, otherKiB: (otherPages * frameBytes) / 1024, rows }, null, 2));
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
