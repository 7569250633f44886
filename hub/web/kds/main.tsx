/** Entry point of the kitchen display (kds.html), a page apart from the manager's. */
import { render } from 'preact';
import { App } from './App';
import { beepsPlayed, unlockAudio } from './beep';
import './kds.css';

// Browsers allow sound only after a touch; any touch on the page unlocks it (again, if the tablet suspended it).
addEventListener('pointerdown', unlockAudio);
// For the browser test: how many sounds were played (a person hears them).
Object.defineProperty(window, '__kdsBeeps', { get: beepsPlayed });

render(<App />, document.getElementById('kds')!);
