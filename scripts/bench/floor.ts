/**
 * The floor the bench compares against: a minimal express + better-sqlite3 handler that stores
 * the same ticket JSON the hub stores, with none of the hub's work (auth, validation, rules,
 * orders, change log), and just as durable: `synchronous = FULL`, so each insert's commit fsyncs
 * the WAL before its 201 (the plain way to meet CONTRACT §12, one fsync per request on the event loop).
 * Run by scripts/bench.ts as its own process: `tsx scripts/bench/floor.ts <port> <dir>`.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import express from 'express';
import { openDb } from '../../db/client.js';

const [port, dir] = process.argv.slice(2);
const db = openDb(join(dir, 'floor.sqlite'));
db.$client.pragma('synchronous = FULL');
db.$client.exec('CREATE TABLE IF NOT EXISTS floor (id TEXT PRIMARY KEY, doc TEXT NOT NULL)');
const insert = db.$client.prepare('INSERT INTO floor (id, doc) VALUES (?, ?)');
const app = express();
app.use(express.json({ limit: '1mb' }));
app.post('/api/tickets', (req, res) => {
  const id = randomUUID();
  const doc = { ...req.body, id };
  insert.run(id, JSON.stringify(doc));
  res.status(201).json(doc);
});
app.listen(Number(port), '127.0.0.1', () => process.stdout.write('floor ready\n'));
