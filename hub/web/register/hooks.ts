/**
 * The register's small state outside the till: which screen shows (no address bar on an installed
 * app, so the screens are not routes), passing messages, the lock, and hooks that re-render a
 * component when the till, the session or the clock moves.
 */
import { useEffect, useState } from 'preact/hooks';
import { device, hubNow, onChange, session, type Pairing, type Session } from './api';
import { till } from './till';

export type View =
  | { kind: 'tables' }
  | { kind: 'ticket'; id: string }
  | { kind: 'pay'; id: string }
  | { kind: 'split'; id: string }
  | { kind: 'returns' }
  | { kind: 'day' };

let view: View = { kind: 'tables' };
const viewListeners = new Set<() => void>();

export function go(next: View): void {
  view = next;
  for (const fn of [...viewListeners]) fn();
}

export function useView(): View {
  const [v, set] = useState(view);
  useEffect(() => {
    const fn = () => set(view);
    viewListeners.add(fn);
    fn();
    return () => void viewListeners.delete(fn);
  }, []);
  return v;
}

/** Re-renders on every change of the till (tickets, outbox, connection, catalog). */
export function useTill(): typeof till {
  const [, tick] = useState(0);
  useEffect(() => till.subscribe(() => tick((n) => n + 1)), []);
  return till;
}

export function useSession(): Session | null {
  const [s, set] = useState(session());
  useEffect(() => onChange(() => set(session())), []);
  return s;
}

export function useDevice(): Pairing | null {
  const [d, set] = useState(device());
  useEffect(() => onChange(() => set(device())), []);
  return d;
}

/**
 * The hub's time now (hubNow: this device's clock may be minutes off), rendered again every `ms` so
 * minutes since the last order move without anything else changing.
 */
export function useNow(ms = 15_000): number {
  const [, tick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => tick((n) => n + 1), ms);
    return () => clearInterval(t);
  }, [ms]);
  return hubNow();
}

// ---- passing messages ------------------------------------------------------------------------------

export interface Note {
  id: number;
  text: string;
  kind: 'info' | 'error';
}
let notes: Note[] = [];
let noteSeq = 0;
const noteListeners = new Set<() => void>();

/** A message shown for a few seconds at the foot of the screen. */
export function say(text: string, kind: Note['kind'] = 'info'): void {
  const note = { id: ++noteSeq, text, kind };
  notes = [...notes, note].slice(-3);
  noteListeners.forEach((fn) => fn());
  setTimeout(() => {
    notes = notes.filter((n) => n !== note);
    noteListeners.forEach((fn) => fn());
  }, kind === 'error' ? 8000 : 4000);
}

export function useNotes(): Note[] {
  const [n, set] = useState(notes);
  useEffect(() => {
    const fn = () => set(notes);
    noteListeners.add(fn);
    return () => void noteListeners.delete(fn);
  }, []);
  return n;
}

// ---- the lock ----------------------------------------------------------------------------------------

const LOCK_KEY = 'poshub.pos.locked';
let locked = (() => {
  try {
    return localStorage.getItem(LOCK_KEY) === '1';
  } catch {
    return false;
  }
})();
const lockListeners = new Set<() => void>();

export function isLocked(): boolean {
  return locked;
}

/** Locks the register (idle, or a waiter walking away): the next waiter taps their name. Survives a reload. */
export function setLocked(on: boolean): void {
  if (on === locked) return;
  locked = on;
  try {
    if (on) localStorage.setItem(LOCK_KEY, '1');
    else localStorage.removeItem(LOCK_KEY);
  } catch {
    /* private mode */
  }
  lockListeners.forEach((fn) => fn());
}

export function useLocked(): boolean {
  const [l, set] = useState(locked);
  useEffect(() => {
    const fn = () => set(locked);
    lockListeners.add(fn);
    fn();
    return () => void lockListeners.delete(fn);
  }, []);
  return l;
}
