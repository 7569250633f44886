/** Entry point of head office's page (hq.html, served by HQ at /hq/), a page apart from the hub's. */
import { render } from 'preact';
import { App } from './App';
import './hq.css';

render(<App />, document.getElementById('hq')!);
