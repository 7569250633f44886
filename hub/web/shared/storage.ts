/** A JSON value the page keeps in localStorage, or null when there is none or it cannot be read (private mode, a hand-edited value). */
export function readStored<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}
