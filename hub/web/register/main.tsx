/** Entry point of the register (pos.html, served at /pos/). */
import { render } from 'preact';
import { App } from './App';
import { askPersistentStorage } from './idb';
import { till } from './till';
import './register.css';

// What the register kept (tickets, unsent changes, the catalog) is read before the first screen that needs it.
void till.restore();
// Keep this origin's storage when the tablet runs short of space: unsent orders live there.
void askPersistentStorage();
// The service worker keeps the page for a start without the network (only in a secure context; not under `vite dev`).
if ('serviceWorker' in navigator && !import.meta.env.DEV) {
  void navigator.serviceWorker.register('/pos/sw.js', { scope: '/pos/' }).catch(() => undefined);
}

render(<App />, document.getElementById('pos')!);
