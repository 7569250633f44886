/**
 * `npm run hq -- nats-config <storeId>…` (CONTRACT §13): the nats-server configuration of a chain —
 * one user per store, allowed only its own subjects (protocol.ts storeNatsPermissions), and HQ's own
 * user. Each user's password is generated once and kept in a file of its own (mode 600, in a
 * directory of mode 700), so running it again for a new store keeps every other password; the
 * configuration goes to stdout, where the secrets are to stderr.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HQ_NATS_USER, STORE_ID, hqNatsPermissions, storeNatsPermissions, type NatsPermissions } from './protocol.js';

export interface NatsConfigResult {
  /** nats-server's configuration text (it holds the passwords: keep the file mode 600). */
  config: string;
  /** Where each user's password file is. */
  files: Record<string, string>;
  /** Each user's password. */
  passwords: Record<string, string>;
}

/** A user's password: the one in its file, or a new one written there (mode 600). */
function passwordOf(dir: string, user: string): { file: string; password: string } {
  const file = join(dir, `${user}.password`);
  if (existsSync(file)) {
    const password = readFileSync(file, 'utf8').trim();
    if (password) {
      chmodSync(file, 0o600);
      return { file, password };
    }
  }
  const password = randomBytes(24).toString('base64url');
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // an existing empty file keeps its mode through writeFileSync
  return { file, password };
}

const user = (name: string, password: string, permissions: NatsPermissions) =>
  `    { user: ${JSON.stringify(name)}, password: ${JSON.stringify(password)},\n      permissions: ${JSON.stringify(permissions)} }`;

/** Problems with the store ids asked for (empty: none). */
export function storeIdProblems(storeIds: string[]): string[] {
  const problems: string[] = [];
  if (!storeIds.length) problems.push('name the stores: npm run hq -- nats-config <storeId> [<storeId>…]');
  for (const id of storeIds) {
    if (!STORE_ID.test(id)) problems.push(`'${id}' is not a store id (1-64 of A-Za-z0-9_-)`);
    else if (id === HQ_NATS_USER) problems.push(`'${id}' is HQ's own NATS user: give the store another id`);
  }
  const seen = new Set<string>();
  for (const id of storeIds) {
    if (seen.has(id)) problems.push(`'${id}' is named twice`);
    seen.add(id);
  }
  return problems;
}

export function natsConfig(storeIds: string[], secretsDir: string): NatsConfigResult {
  const problems = storeIdProblems(storeIds);
  if (problems.length) throw new Error(problems.join('; '));
  mkdirSync(secretsDir, { recursive: true, mode: 0o700 });
  chmodSync(secretsDir, 0o700);
  const files: Record<string, string> = {};
  const passwords: Record<string, string> = {};
  const lines: string[] = [];
  for (const name of [HQ_NATS_USER, ...storeIds]) {
    const { file, password } = passwordOf(secretsDir, name);
    files[name] = file;
    passwords[name] = password;
    lines.push(user(name, password, name === HQ_NATS_USER ? hqNatsPermissions() : storeNatsPermissions(name)));
  }
  const config = `# POS Hub chain: NATS users, written by \`npm run hq -- nats-config ${storeIds.join(' ')}\`.
# It holds every user's password: keep this file mode 600. Each store runs with
# POS_HUB_HQ_USER=<storeId>, POS_HUB_HQ_PASSWORD=<its password file's content>, POS_HUB_STORE_ID=<storeId>;
# HQ with POS_HQ_NATS_USER=${HQ_NATS_USER} and POS_HQ_NATS_PASSWORD=<${HQ_NATS_USER}.password>.
# Over a WAN, add nats-server's tls block and give everyone tls:// URLs (README "Security"):
# tls { cert_file: "/etc/nats/server.crt", key_file: "/etc/nats/server.key" }
authorization {
  users = [
${lines.join('\n')}
  ]
}
`;
  return { config, files, passwords };
}

/** The command: arguments are store ids, `--secrets <dir>` where the password files go (default `<POS_HQ_DATA_DIR>/nats`). */
export function runNatsConfig(args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const stores: string[] = [];
  let secrets = join(resolve(env.POS_HQ_DATA_DIR || './hq-data'), 'nats');
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--secrets' && args[i + 1]) secrets = resolve(args[++i]);
    else stores.push(args[i]);
  }
  const problems = storeIdProblems(stores);
  if (problems.length) {
    process.stderr.write(`nats-config: ${problems.join('\n  ')}\n`);
    return 2;
  }
  const result = natsConfig(stores, secrets);
  process.stdout.write(result.config);
  process.stderr.write(
    `nats-config: ${Object.keys(result.files).length} users; their passwords are in ${secrets} (one <user>.password file each, mode 600).\n` +
      'Save this configuration mode 600 too (it holds the passwords) and start nats-server with it and -js.\n',
  );
  return 0;
}
