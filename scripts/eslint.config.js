// ESLint flat config (kept under scripts/ so the top of the repo stays as the layout says).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'data/**', 'hub/web/dist/**', 'hub/dist/**', 'db/migrations/**'] },
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
    // The manager's page runs in the browser.
    files: ['hub/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
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
 * The store layer: SQL (drizzle's `sql`, the query builder's `schema`, `rawSql`, the raw client)
 * only in store modules — files named store.ts, repo.ts or *-store.ts, the resource engine, db/ —
 * and in tools (scripts, tests).
 */
function layering() {
  const STORE = ['hub/**/store.ts', 'hub/**/repo.ts', 'hub/**/*-store.ts', 'hub/resources/engine/**', 'hub/hq/migrations.ts'];
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
