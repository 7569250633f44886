/** The kitchen view of one order endpoint: New, In progress and Ready columns, oldest first. */
import type { JSX } from 'preact';
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { messages } from '../shared/i18n';
import type { OrderEndpoint } from '../shared/types';
import { ApiError, call } from './api';
import { beep } from './beep';
import { Feed, type Order } from './feed';
import { go, kitchenPath, useFeed, useNow } from './hooks';
import { Ticket, type Timers } from './Ticket';
import { History, HistoryButton, Message, RecallButton, stateLabel, Top } from './Top';

const t = messages({
  more: { en: '▼ {n} more', sk: '▼ ďalšie: {n}', cs: '▼ další: {n}' },
  noEndpoint: { en: 'No order endpoint “{name}”', sk: 'Výdajné miesto „{name}“ neexistuje', cs: 'Výdejní místo „{name}“ neexistuje' },
  renamed: { en: 'It may have been renamed or deleted.', sk: 'Možno ho premenovali alebo zmazali.', cs: 'Možná ho přejmenovali nebo smazali.' },
  choose: { en: 'Choose a display', sk: 'Vybrať displej', cs: 'Vybrat displej' },
  printer: { en: '{type} printer', sk: 'tlačiareň {type}', cs: 'tiskárna {type}' },
  passView: { en: 'Pass view', sk: 'Výdaj', cs: 'Výdej' },
  loading: { en: 'Loading…', sk: 'Načítava sa…', cs: 'Načítá se…' },
  nothing: { en: 'Nothing here', sk: 'Nič tu nie je', cs: 'Nic tu není' },
});

/** The order endpoint a display shows, as far as it reads it. */
export type Endpoint = Pick<OrderEndpoint, 'name' | 'type' | 'isActive' | 'settings'>;

/** The endpoint's settings, re-read when the manager changes them (an `orderendpoints` event). */
export function useEndpoint(name: string | null): { endpoint: Endpoint | null; missing: boolean; reload: () => void } {
  const [endpoint, setEndpoint] = useState<Endpoint | null>(null);
  const [missing, setMissing] = useState(false);
  const [gen, setGen] = useState(0);
  useEffect(() => {
    if (!name) return;
    let live = true;
    call<Endpoint>('GET', `/api/orderendpoints/${encodeURIComponent(name)}`)
      .then((e) => live && (setEndpoint(e), setMissing(false)))
      .catch((e) => {
        if (!live) return;
        if (e instanceof ApiError && e.status === 404) setMissing(true);
        // Unreachable for now: the display runs on defaults and asks again.
        else retry = setTimeout(() => setGen((g) => g + 1), 5000);
      });
    let retry: ReturnType<typeof setTimeout> | undefined;
    return () => {
      live = false;
      clearTimeout(retry);
    };
  }, [name, gen]);
  return { endpoint, missing, reload: () => setGen((g) => g + 1) };
}

/**
 * Minutes from `?amber=` / `?red=`, else the endpoint's AmberAfterMinutes / RedAfterMinutes, else
 * the defaults. Decimals are fine (0.5 = 30 s).
 */
export function timersFrom(settings: Record<string, string> | undefined, defaults: [number, number]): Timers {
  const params = new URLSearchParams(location.search);
  const minutes = (param: string, setting: string, fallback: number) => {
    const v = Number(params.get(param) ?? settings?.[setting] ?? NaN);
    return Number.isFinite(v) && v >= 0 ? v : fallback;
  };
  const amber = minutes('amber', 'AmberAfterMinutes', defaults[0]);
  const red = Math.max(amber, minutes('red', 'RedAfterMinutes', defaults[1]));
  return { amberMs: amber * 60_000, redMs: red * 60_000 };
}

export function beepFrom(settings: Record<string, string> | undefined): boolean {
  const param = new URLSearchParams(location.search).get('beep');
  return (param ?? settings?.IsBeepEnabled ?? 'false').toLowerCase() === 'true';
}

/** Orders that arrived live glow for a while; a sound when the endpoint wants one. */
export function useArrivals(beepEnabled: boolean): { fresh: Set<string>; onArrive: (o: Order) => void } {
  const [fresh, setFresh] = useState<Set<string>>(new Set());
  const beepRef = useRef(beepEnabled);
  beepRef.current = beepEnabled;
  const onArrive = useMemo(
    () => (o: Order) => {
      if (beepRef.current) beep(o.kind === 'Cancel' ? 'cancel' : 'new');
      setFresh((s) => new Set(s).add(o.id));
      setTimeout(() => setFresh((s) => (s.delete(o.id) ? new Set(s) : s)), 10_000);
    },
    [],
  );
  return { fresh, onArrive };
}

/**
 * A column's cards, scrolling; "▼ 4 more" at the bottom while cards are hidden below, so a full
 * column never hides that there is more to cook.
 */
function Stack({ children, count }: { children: ComponentChildren; count: number }): JSX.Element {
  const ref = useRef<HTMLDivElement>(null);
  const [below, setBelow] = useState(0);
  const measure = () => {
    const el = ref.current;
    if (!el) return;
    const bottom = el.scrollTop + el.clientHeight;
    let hidden = 0;
    for (const child of Array.from(el.children) as HTMLElement[]) if (child.classList.contains('ticket') && child.offsetTop + 24 > bottom) hidden++;
    setBelow(hidden);
  };
  useLayoutEffect(measure);
  useEffect(() => {
    addEventListener('resize', measure);
    return () => removeEventListener('resize', measure);
  }, []);
  return (
    <div class="stack-wrap">
      <div class="stack" ref={ref} onScroll={measure} data-count={count}>
        {children}
      </div>
      {below > 0 && (
        <button class="more" type="button" onClick={() => ref.current?.scrollBy({ top: ref.current.clientHeight * 0.8, behavior: 'smooth' })}>
          {t('more', { n: below })}
        </button>
      )}
    </div>
  );
}

const COLUMNS = ['New', 'InProgress', 'Ready'] as const;

export function Kitchen({ name }: { name: string }): JSX.Element {
  const { endpoint, missing, reload } = useEndpoint(name);
  const beepEnabled = beepFrom(endpoint?.settings);
  const { fresh, onArrive } = useArrivals(beepEnabled);
  const reloadRef = useRef(reload);
  reloadRef.current = reload;
  const feed = useMemo(() => new Feed([name], { onArrive, onEndpointChange: (key) => key === name && reloadRef.current() }), [name, onArrive]);
  useEffect(() => {
    feed.start();
    return () => feed.stop();
  }, [feed]);
  useFeed(feed);
  const now = useNow(1000);
  const timers = timersFrom(endpoint?.settings, [5, 10]);
  const [historyOpen, setHistoryOpen] = useState(false);

  if (missing) {
    return (
      <div class="center-page">
        <h1>{t('noEndpoint', { name })}</h1>
        <p>{t('renamed')}</p>
        <button class="big" type="button" onClick={() => go('/kds')}>
          {t('choose')}
        </button>
      </div>
    );
  }
  const cols = feed.columns();
  return (
    <div class="kds" data-testid="kitchen">
      <Top title={name} subtitle={endpoint && endpoint.type !== 'Tablet' ? t('printer', { type: endpoint.type }) : undefined} feed={feed} now={now} beepEnabled={beepEnabled}>
        <RecallButton feed={feed} />
        <HistoryButton feed={feed} open={historyOpen} onToggle={() => setHistoryOpen((o) => !o)} />
        <button class="chip ghost" type="button" onClick={() => go(`${kitchenPath(name)}/expo${location.search}`)}>
          {t('passView')}
        </button>
      </Top>
      <Message feed={feed} now={now} />
      {historyOpen && <History feed={feed} onClose={() => setHistoryOpen(false)} />}
      <main class="columns">
        {COLUMNS.map((state) => (
          <section class={`column col-${state}`} data-column={state} key={state} aria-label={stateLabel(state)}>
            <h2>
              {stateLabel(state)} <span class="count">{cols[state].length}</span>
            </h2>
            <Stack count={cols[state].length}>
              {!feed.ready && state === 'New' && <p class="empty">{t('loading')}</p>}
              {feed.ready && cols[state].length === 0 && <p class="empty">{t('nothing')}</p>}
              {cols[state].map((o) => (
                <Ticket key={o.id} order={o} feed={feed} timers={timers} fresh={fresh.has(o.id)} now={now} />
              ))}
            </Stack>
          </section>
        ))}
      </main>
    </div>
  );
}
