/**
 * The register's small state outside the till: which screen shows (no address bar on an installed
 * app, so the screens are not routes), passing messages, the lock, and hooks that re-render a
 * component when the till, the session or the clock moves.
 */
import { useEffect, useState } from 'preact/hooks';
import { readStored, removeStored, writeStored } from '../shared/storage';
import { Store, useStore } from '../shared/store';
import { device, hubNow, onChange, session, type Pairing, type Session } from './api';
import { till } from './till';

export type View =
  | { kind: 'tables' }
  | { kind: 'ticket'; id: string }
  | { kind: 'pay'; id: string }
  | { kind: 'split'; id: string }
  | { kind: 'returns' }
  | { kind: 'day' };

const view = new Store<View>({ kind: 'tables' });

export function go(next: View): void {
  view.set(next);
}

export function useView(): View {
  return useStore(view);
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
const notes = new Store<Note[]>([]);
let noteSeq = 0;

/** A message shown for a few seconds at the foot of the screen. */
export function say(text: string, kind: Note['kind'] = 'info'): void {
  const note = { id: ++noteSeq, text, kind };
  notes.set([...notes.value, note].slice(-3));
  setTimeout(() => notes.set(notes.value.filter((n) => n !== note)), kind === 'error' ? 8000 : 4000);
}

export function useNotes(): Note[] {
  return useStore(notes);
}

// ---- the lock ----------------------------------------------------------------------------------------

const LOCK_KEY = 'poshub.pos.locked';
// Kept as '1' (private mode: locked until the tab closes).
const locked = new Store<boolean>(readStored<number>(LOCK_KEY) === 1);

export function isLocked(): boolean {
  return locked.value;
}

/** Locks the register (idle, or a waiter walking away): the next waiter taps their name. Survives a reload. */
export function setLocked(on: boolean): void {
  if (on === locked.value) return;
  if (on) writeStored(LOCK_KEY, 1);
  else removeStored(LOCK_KEY);
  locked.set(on);
}

export function useLocked(): boolean {
  return useStore(locked);
}
