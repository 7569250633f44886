/**
 * Splitting a bill by items, or moving items to another table: choose how much of each line goes,
 * and where — a new ticket at the same table (each guest pays their own), or another table (its
 * ticket, or a new one there). The hub moves them in one step (PATCH Split): no kitchen order, no
 * storno, every total exact to the cent.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { messages } from '../shared/i18n';
import { money, quantity } from '../shared/format';
import { newTicketId } from './api';
import { go, say } from './hooks';
import { dec, num, sum } from './money';
import { TablePicker } from './More';
import { tableLabel } from './Tables';
import { lineAmount, lineFrom, type Location } from './tickets';
import { till } from './till';
import { Dialog, ScreenHead, useAction } from './ui';

const t = messages({
  title: { en: 'Split or move items: {name}', sk: 'Rozdeliť alebo presunúť: {name}', cs: 'Rozdělit nebo přesunout: {name}' },
  how: { en: 'Tap the lines that go (each tap moves one more).', sk: 'Ťuknite na položky, ktoré idú preč (každé ťuknutie o jednu viac).', cs: 'Klepněte na položky, které jdou pryč (každé klepnutí o jednu víc).' },
  all: { en: 'All of it', sk: 'Celé', cs: 'Celé' },
  none: { en: 'None', sk: 'Nič', cs: 'Nic' },
  moving: { en: 'Moving {amount}', sk: 'Presúva sa {amount}', cs: 'Přesouvá se {amount}' },
  staying: { en: 'Staying {amount}', sk: 'Zostáva {amount}', cs: 'Zůstává {amount}' },
  newHere: { en: 'To a new ticket at this table', sk: 'Na nový účet pri tomto stole', cs: 'Na nový účet u tohoto stolu' },
  elsewhere: { en: 'To another table…', sk: 'Na iný stôl…', cs: 'Na jiný stůl…' },
  done: { en: 'Moved: {amount} to {name}.', sk: 'Presunuté: {amount} na {name}.', cs: 'Přesunuto: {amount} na {name}.' },
  part: { en: '{name} / {n}', sk: '{name} / {n}', cs: '{name} / {n}' },
  oneLeft: { en: 'Take one back', sk: 'O jednu späť', cs: 'O jednu zpět' },
});

export function Split({ id }: { id: string }): JSX.Element {
  const ticket = till.ticket(id);
  const [moving, setMoving] = useState<Record<number, number>>({});
  const [picking, setPicking] = useState(false);
  const [running, act] = useAction();
  const busy = running !== null;
  if (!ticket?.base) {
    go({ kind: 'tables' });
    return <section />;
  }
  const lines = ticket.base.items.map(lineFrom);
  const movingAmount = num(sum(lines.map((l) => lineAmount({ ...l, quantity: moving[l.id] ?? 0 }))));
  const any = Object.values(moving).some((q) => q > 0);
  const name = ticket.draft.name || ticket.draft.location?.tableName || '';
  const bump = (lineId: number, max: number, by: number) => {
    const next = Math.min(max, Math.max(0, num(dec(moving[lineId] ?? 0).plus(by))));
    setMoving({ ...moving, [lineId]: next });
  };

  const move = (target: { id: string; name?: string; location?: Location | null }, label: string) =>
    act(true, async () => {
      const items = Object.entries(moving)
        .filter(([, q]) => q > 0)
        .map(([lineId, quantity]) => ({ id: Number(lineId), quantity }));
      const moved = await till.split(id, items, target);
      say(t('done', { amount: money(movingAmount), name: label }));
      go({ kind: 'ticket', id: moved.id });
    });

  const toNewHere = () => {
    const parts = till.at(ticket.draft.location?.tableName ?? '\u0000').length;
    const label = t('part', { name, n: parts + 1 });
    void move({ id: newTicketId(), name: label, location: ticket.draft.location }, label);
  };

  const toTable = (location: Location) => {
    setPicking(false);
    const there = till.at(location.tableName ?? '').filter((x) => x.id !== id && x.base);
    const label = tableLabel(location.tableName ?? '');
    if (there.length === 1) void move({ id: there[0].id }, label);
    else void move({ id: newTicketId(), name: label, location }, label);
  };

  return (
    <section class="split" data-testid="split">
      <ScreenHead title={t('title', { name })} back="step" onBack={() => go({ kind: 'ticket', id })} />
      <p class="muted">{t('how')}</p>
      <ul class="lines split-lines">
        {lines.map((l) => {
          const q = moving[l.id] ?? 0;
          return (
            <li key={l.id} class={`line${q > 0 ? ' moving' : ''}`} data-line-id={l.id}>
              <button type="button" class="line-button" onClick={() => bump(l.id, l.quantity, 1)} data-testid={`split-line-${l.id}`}>
                <span class="line-qty num">
                  {quantity(q)} / {quantity(l.quantity)}
                </span>
                <span class="line-name">{l.name}</span>
                <span class="line-amount num">{money(lineAmount({ ...l, quantity: q }))}</span>
              </button>
              <div class="line-tools">
                <button type="button" class="chip" onClick={() => bump(l.id, l.quantity, -1)} disabled={q === 0} aria-label={t('oneLeft')}>
                  −
                </button>
                <button type="button" class="chip" onClick={() => setMoving({ ...moving, [l.id]: q === l.quantity ? 0 : l.quantity })}>
                  {q === l.quantity ? t('none') : t('all')}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      <div class="split-foot">
        <p class="num" data-testid="moving">
          {t('moving', { amount: money(movingAmount) })} · {t('staying', { amount: money(num(dec(ticket.base.totalPrice.amount).minus(movingAmount))) })}
        </p>
        <div class="row">
          <button type="button" class="big primary" disabled={!any || busy} onClick={toNewHere} data-testid="split-new">
            {t('newHere')}
          </button>
          <button type="button" class="big" disabled={!any || busy} onClick={() => setPicking(true)} data-testid="split-elsewhere">
            {t('elsewhere')}
          </button>
        </div>
      </div>
      {picking && (
        <Dialog title={t('elsewhere')} onClose={() => setPicking(false)}>
          <TablePicker exclude={ticket.draft.location?.tableName} onPick={toTable} />
        </Dialog>
      )}
    </section>
  );
}
