/** A JSON value the page keeps in localStorage, or null when there is none or it cannot be read (private mode, a hand-edited value). */
export function readStored<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

/** Keeps a JSON value in localStorage; false when it cannot (private mode, storage full). */
export function writeStored(key: string, value: unknown): boolean {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

export function removeStored(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    /* nothing kept, nothing to remove */
  }
}
