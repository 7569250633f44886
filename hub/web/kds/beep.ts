/**
 * The new-order sound, made with WebAudio (no file to fetch, nothing the hub must serve).
 * Browsers start audio only after a tap, so the context is made at the first touch of the page;
 * until then `audioLocked()` is true and the display asks for one tap.
 */
let ctx: AudioContext | null = null;
const listeners = new Set<() => void>();

export function onAudioChange(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function unlockAudio(): void {
  try {
    ctx ??= new AudioContext();
    if (ctx.state === 'suspended') void ctx.resume().then(() => listeners.forEach((fn) => fn()));
    listeners.forEach((fn) => fn());
  } catch {
    /* no audio on this device: the display stays silent */
  }
}

export function audioLocked(): boolean {
  return !ctx || ctx.state !== 'running';
}

/** Two short tones for a new order; a lower, longer pair for a cancel order. */
export function beep(kind: 'new' | 'cancel' = 'new'): void {
  if (!ctx || ctx.state !== 'running') return;
  const tones = kind === 'new' ? [880, 1175] : [440, 330];
  const length = kind === 'new' ? 0.14 : 0.3;
  let t = ctx.currentTime + 0.01;
  for (const freq of tones) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = 'sine';
    osc.frequency.value = freq;
    // A soft attack and release: no click, and it cuts through kitchen noise without being shrill.
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.5, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + length + 0.02);
    t += length + 0.06;
  }
  played++;
}

/** How many sounds were played: the browser test reads it (window.__kdsBeeps), a person hears it. */
let played = 0;
export function beepsPlayed(): number {
  return played;
}
