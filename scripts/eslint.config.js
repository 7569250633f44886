// ESLint flat config (kept under scripts/ so the top of the repo stays as the layout says).
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The rooms of the browser code under hub/web, and the rooms each may import from. */
const BROWSER_ROOMS = { manager: ['manager', 'shared'], kds: ['kds', 'shared'], hq: ['hq', 'shared'], register: ['register', 'shared'], shared: ['shared'] };
/**
 * Server modules the pages may bundle: pure modules importing nothing but each other (or decimal.js) — the rights
 * and their presets (so the page offers exactly the rights the hub checks), the CSV writer (so a
 * CSV made in a browser is neutralised as the hub's are, CONTRACT §12), the rules both sides
 * apply (a numbering's format, an e-mail address: the page checks a form by the hub's own rule),
 * the shop's wall clock (a day's start across summer time, as the hub counts its days), and Slovak
 * cash rounding (the register asks for the cash the eKasa driver will take; decimal.js is its one import).
 */
const BUNDLED_FOR_BROWSER = ['hub/http/rights', 'hub/http/presets', 'hub/core/csv', 'hub/core/rules', 'hub/core/time', 'drivers/fiscal/cash-rounding'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'data/**', 'hub/web/dist/**', 'hub/web/shared/api-types.ts', 'hub/dist/**', 'db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  {
    // The manager's page, the kitchen display, the register and what they share run in the browser.
    files: [`hub/web/{${Object.keys(BROWSER_ROOMS).join(',')}}/**/*.{ts,tsx}`],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The API docs' viewer: a plain browser script the hub serves as it is (no build step).
    files: ['hub/web/docs/**/*.js'],
    languageOptions: { globals: { ...globals.browser }, sourceType: 'script' },
  },
  {
    // Browser code and server code stay apart; the pages share only hub/web/shared.
    files: ['hub/**/*.{ts,tsx}', 'drivers/**/*.ts', 'db/**/*.ts'],
    plugins: { poshub: { rules: { rooms: roomsRule() } } },
    rules: { 'poshub/rooms': 'error' },
  },
  {
    // Tests read JSON replies whose shape they assert; typing each one would add noise, not safety.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // ARCHITECTURE.md's rules, so breaking one fails CI. Each file group gets one no-restricted-imports
  // (later blocks replace earlier ones for the same rule), built from the bans that apply to it.
  ...layering(),
);


/**
 * The room a repository path lives in: a browser room, `web` (the rest of hub/web: Vite's
 * config, the HTML entries, the build), `server` (hub/ outside hub/web, drivers/, db/) or `other`.
 */
function roomOf(path) {
  const browser = /^hub\/web\/([^/]+)\//.exec(path);
  if (browser) return browser[1] in BROWSER_ROOMS ? browser[1] : 'web';
  return /^(hub|drivers|db)\//.test(path) ? 'server' : 'other';
}

/**
 * ARCHITECTURE.md's browser/server split as a rule over relative imports (resolved against the
 * importing file, so the depth of `../` does not matter): browser code imports only its own room
 * and shared/ (plus BUNDLED_FOR_BROWSER) and no Node built-in; server code never imports hub/web.
 */
function roomsRule() {
  const ROOT = fileURLToPath(new URL('..', import.meta.url));
  return {
    meta: { type: 'problem', schema: [] },
    create(context) {
      const from = roomOf(relative(ROOT, context.filename));
      const check = (node) => {
        const spec = node.source?.value;
        if (typeof spec !== 'string') return;
        if (from in BROWSER_ROOMS && spec.startsWith('node:')) {
          context.report({ node, message: 'Browser code (hub/web) runs in a browser: no Node built-ins.' });
          return;
        }
        if (!spec.startsWith('.')) return;
        const target = relative(ROOT, resolve(dirname(context.filename), spec));
        const to = roomOf(target);
        if (from in BROWSER_ROOMS) {
          if (BROWSER_ROOMS[from].includes(to) || BUNDLED_FOR_BROWSER.includes(target.replace(/\.(js|ts)$/, ''))) return;
          const allowed = BROWSER_ROOMS[from].map((r) => `hub/web/${r}`).join(' and ');
          context.report({ node, message: `hub/web/${from} imports only ${allowed} (browser code never imports server code; the pages share through hub/web/shared), not ${target}.` });
        } else if (from === 'server' && (to in BROWSER_ROOMS || to === 'web')) {
          context.report({ node, message: `Server code never imports hub/web (browser code), here ${target}; pages are served by hub/http/pages.ts from the build.` });
        }
      };
      return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
    },
  };
}

/**
 * The store layer: SQL (drizzle's `sql`, the query builder's `schema`, `rawSql`, the raw client)
 * only in store modules — files named store.ts, repo.ts or *-store.ts, the resource engine, db/ —
 * and in tools (scripts, tests).
 */
function layering() {
  const STORE = ['hub/**/store.ts', 'hub/**/repo.ts', 'hub/**/*-store.ts', 'hub/engine/**', 'hub/hq/migrations.ts'];
  const sqlBans = {
    paths: [
      { name: 'drizzle-orm', importNames: ['sql'], message: 'SQL lives in store modules (store.ts, repo.ts, *-store.ts): call one.' },
      { name: 'better-sqlite3', message: 'Only db/ opens SQLite.' },
    ],
    patterns: [{ group: ['**/db/client.js'], importNames: ['rawSql', 'schema'], message: 'SQL lives in store modules (store.ts, repo.ts, *-store.ts): call one.' }],
  };
  const hardware = ['serialport', '@serialport/*', 'node-thermal-printer', 'bonjour-service'].map((name) => ({
    group: [name],
    message: 'Hardware and mDNS libraries are imported only under drivers/.',
  }));
  /** Files under hub/<folder>/ may use the hub's leaf modules (hub/core) but never the composition at hub's root. */
  const noComposition = {
    group: ['**/app.js', '**/main.js', '**/openapi.js', '**/bootstrap.js', '**/health.js', '**/metrics.js', '**/rights-upgrade.js'].map((g) => g),
    message: "The composition root (hub/*.ts) imports the folders, not the other way round; take what you need as a parameter.",
  };
  const merge = (...parts) => ({
    paths: parts.flatMap((p) => p.paths ?? []),
    patterns: parts.flatMap((p) => p.patterns ?? []),
  });
  const rule = (...parts) => ({ 'no-restricted-imports': ['error', merge(...parts)] });
  const noSqlSyntax = {
    'no-restricted-syntax': ['error', { selector: "MemberExpression[property.name='$client']", message: 'SQL lives in store modules: the raw client is theirs.' }],
  };
  return [
    { files: ['hub/**/*.ts'], ignores: ['hub/web/**', ...STORE], rules: { ...rule(sqlBans, { patterns: hardware }), ...noSqlSyntax } },
    { files: STORE, rules: rule({ paths: [{ name: 'better-sqlite3', message: 'Only db/ opens SQLite.' }] }, { patterns: hardware }) },
    // Composition stays at the root: a folder never reaches back for it.
    { files: ['hub/*/**/*.ts'], ignores: ['hub/web/**', ...STORE], rules: { ...rule(sqlBans, { patterns: hardware }, { patterns: [noComposition] }), ...noSqlSyntax } },
    { files: STORE.filter((g) => g.startsWith('hub/')), rules: rule({ paths: [{ name: 'better-sqlite3', message: 'Only db/ opens SQLite.' }] }, { patterns: hardware }, { patterns: [noComposition] }) },
    // Drivers speak bytes to hardware: never the hub, never the database.
    { files: ['drivers/**/*.ts'], rules: rule({ patterns: [{ group: ['**/hub/**', '**/db/**'], message: 'drivers/ never imports hub/ or db/.' }] }, { paths: [{ name: 'better-sqlite3', message: 'Only db/ opens SQLite.' }] }) },
    // Transports carry bytes for any protocol: they import none.
    {
      files: ['drivers/transport/**/*.ts'],
      rules: rule({ patterns: [{ group: ['**/fiscal/**', '**/escpos/**', '**/mdns.js', '**/hub/**', '**/db/**'], message: 'A transport never imports a protocol (nor hub/, db/).' }] }),
    },
    // The ESC/POS encoder serves kitchen printers and the escpos fiscal driver alike: it knows no fiscal protocol.
    { files: ['drivers/escpos/**/*.ts'], rules: rule({ patterns: [{ group: ['**/fiscal/**', '**/hub/**', '**/db/**'], message: 'drivers/escpos never imports a fiscal driver (nor hub/, db/).' }] }) },
    { files: ['db/**/*.ts'], rules: rule({ patterns: [{ group: ['**/hub/**', '**/drivers/**'], message: 'db/ never imports hub/ or drivers/.' }] }) },
  ];
}
