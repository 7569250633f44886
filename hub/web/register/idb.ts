/**
 * What the register keeps in the browser's IndexedDB, so a closed and reopened tab (or a tablet that
 * ran out of battery) loses nothing typed: the open tickets as the register knows them, the writes
 * still to send (the outbox), and the catalog it sells from (so it starts without the hub).
 *
 * Three stores: `tickets` (by id), `outbox` (by seq, in order) and `kv` (anything else by name). A
 * browser without IndexedDB (some private modes) keeps them in memory for the life of the tab.
 */
const DB_NAME = 'poshub-pos';
const VERSION = 1;
type StoreName = 'tickets' | 'outbox' | 'kv';

let opening: Promise<IDBDatabase | null> | null = null;
const memory: Record<StoreName, Map<IDBValidKey, unknown>> = { tickets: new Map(), outbox: new Map(), kv: new Map() };

function open(): Promise<IDBDatabase | null> {
  opening ??= new Promise((resolve) => {
    if (typeof indexedDB === 'undefined') return resolve(null);
    let req: IDBOpenDBRequest;
    try {
      req = indexedDB.open(DB_NAME, VERSION);
    } catch {
      return resolve(null);
    }
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains('tickets')) db.createObjectStore('tickets', { keyPath: 'id' });
      if (!db.objectStoreNames.contains('outbox')) db.createObjectStore('outbox', { keyPath: 'seq' });
      if (!db.objectStoreNames.contains('kv')) db.createObjectStore('kv');
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => resolve(null);
    req.onblocked = () => resolve(null);
  });
  return opening;
}

function done<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function store(name: StoreName, mode: IDBTransactionMode): Promise<IDBObjectStore | null> {
  const db = await open();
  return db ? db.transaction(name, mode).objectStore(name) : null;
}

export async function idbGet<T>(name: StoreName, key: IDBValidKey): Promise<T | undefined> {
  const s = await store(name, 'readonly');
  if (!s) return memory[name].get(key) as T | undefined;
  return (await done(s.get(key))) as T | undefined;
}

export async function idbAll<T>(name: StoreName): Promise<T[]> {
  const s = await store(name, 'readonly');
  if (!s) return [...memory[name].values()] as T[];
  return (await done(s.getAll())) as T[];
}

/** Stores `value` (under `key` for `kv`; the others carry their key). */
export async function idbPut(name: StoreName, value: unknown, key?: IDBValidKey): Promise<void> {
  const s = await store(name, 'readwrite');
  if (!s) {
    const k = key ?? (value as { id?: IDBValidKey; seq?: IDBValidKey }).id ?? (value as { seq: IDBValidKey }).seq;
    memory[name].set(k, value);
    return;
  }
  await done(key === undefined ? s.put(value) : s.put(value, key));
}

export async function idbDelete(name: StoreName, key: IDBValidKey): Promise<void> {
  const s = await store(name, 'readwrite');
  if (!s) {
    memory[name].delete(key);
    return;
  }
  await done(s.delete(key));
}

/**
 * Asks the browser to keep this origin's storage when it runs short of space (it may still say no;
 * an installed app is usually granted it). Only in a secure context; elsewhere nothing to ask.
 */
export async function askPersistentStorage(): Promise<boolean | null> {
  try {
    if (!navigator.storage?.persist) return null;
    if (await navigator.storage.persisted()) return true;
    return await navigator.storage.persist();
  } catch {
    return null;
  }
}
