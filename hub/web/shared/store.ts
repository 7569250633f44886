/** A minimal observable value shared between components (the manager's session, route, live status and toasts; the register's screen, messages and lock). */
import { useEffect, useState } from 'preact/hooks';

export class Store<T> {
  private listeners = new Set<(value: T) => void>();
  constructor(private current: T) {}

  get value(): T {
    return this.current;
  }

  set(value: T): void {
    if (Object.is(value, this.current)) return;
    this.current = value;
    for (const fn of [...this.listeners]) fn(value);
  }

  subscribe(fn: (value: T) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}

export function useStore<T>(store: Store<T>): T {
  const [value, setValue] = useState(store.value);
  useEffect(() => {
    // The store may have changed between render and subscription.
    setValue(store.value);
    return store.subscribe(setValue);
  }, [store]);
  return value;
}
