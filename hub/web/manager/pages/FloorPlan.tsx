/**
 * The floor plan (issue 29): zones (a room, the terrace) with their colour and order, and their
 * tables laid out on a grid, as the registers show them. A zone is edited as a draft and saved whole
 * (PUT with its `_v`, so another manager's change is never overwritten unseen). Built for a tablet as
 * much as a mouse: a table is placed by dragging it (pointer events, touch included) or with the
 * arrow buttons, sized by its corner handle or the +/− buttons, and made round or square with a tap.
 *
 * Positions and sizes are grid cells, as the hub stores them (x, y 0–999; width, height 1–100).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { confirm, Empty, PageHeader, toast } from '../components/ui';
import { Badge, Button, Card, Notice, Spinner } from '../../shared/ui';
import { Field } from '../components/Field';
import { api, ApiError, CONFLICT, describeError, path } from '../lib/api';
import { useAll } from '../lib/data';
import { useQuery } from '../lib/router';
import { useCan } from '../lib/session';
import { messages } from '../../shared/i18n';
import type { Zone } from '../../shared/types';

const t = messages({
  title: { en: 'Floor plan', sk: 'Plán stolov', cs: 'Plán stolů' },
  subtitle: {
    en: 'Zones and their tables, as the registers show them. Drag a table, or tap it and use the buttons.',
    sk: 'Zóny a ich stoly, ako ich ukazujú pokladne. Stôl potiahnite, alebo naň ťuknite a použite tlačidlá.',
    cs: 'Zóny a jejich stoly, jak je ukazují pokladny. Stůl přetáhněte, nebo na něj ťukněte a použijte tlačítka.',
  },
  zones: { en: 'Zones', sk: 'Zóny', cs: 'Zóny' },
  addZone: { en: 'Add a zone', sk: 'Pridať zónu', cs: 'Přidat zónu' },
  newZone: { en: 'New zone', sk: 'Nová zóna', cs: 'Nová zóna' },
  noZones: { en: 'No zones yet', sk: 'Zatiaľ žiadne zóny', cs: 'Zatím žádné zóny' },
  noZonesHint: { en: 'Add one for each room or terrace, then lay out its tables.', sk: 'Pridajte jednu pre každú miestnosť či terasu a rozložte v nej stoly.', cs: 'Přidejte jednu pro každou místnost či terasu a rozložte v ní stoly.' },
  zoneName: { en: 'Zone name', sk: 'Názov zóny', cs: 'Název zóny' },
  color: { en: 'Colour', sk: 'Farba', cs: 'Barva' },
  noColor: { en: 'No colour', sk: 'Bez farby', cs: 'Bez barvy' },
  order: { en: 'Order', sk: 'Poradie', cs: 'Pořadí' },
  orderHint: { en: 'Lower numbers come first on the registers.', sk: 'Nižšie čísla sú na pokladniach skôr.', cs: 'Nižší čísla jsou na pokladnách dříve.' },
  active: { en: 'Shown on the registers', sk: 'Zobrazená na pokladniach', cs: 'Zobrazená na pokladnách' },
  inactive: { en: 'Hidden', sk: 'Skrytá', cs: 'Skrytá' },
  tables: { en: '{n} tables', sk: 'Stoly: {n}', cs: 'Stoly: {n}' },
  addTable: { en: 'Add a table', sk: 'Pridať stôl', cs: 'Přidat stůl' },
  table: { en: 'Table', sk: 'Stôl', cs: 'Stůl' },
  tableName: { en: 'Table name', sk: 'Názov stola', cs: 'Název stolu' },
  seats: { en: 'Seats', sk: 'Miesta', cs: 'Místa' },
  shape: { en: 'Shape', sk: 'Tvar', cs: 'Tvar' },
  rect: { en: 'Square', sk: 'Hranatý', cs: 'Hranatý' },
  round: { en: 'Round', sk: 'Okrúhly', cs: 'Kulatý' },
  move: { en: 'Move', sk: 'Posunúť', cs: 'Posunout' },
  left: { en: 'Left', sk: 'Doľava', cs: 'Doleva' },
  right: { en: 'Right', sk: 'Doprava', cs: 'Doprava' },
  up: { en: 'Up', sk: 'Hore', cs: 'Nahoru' },
  down: { en: 'Down', sk: 'Dole', cs: 'Dolů' },
  size: { en: 'Size', sk: 'Veľkosť', cs: 'Velikost' },
  wider: { en: 'Wider', sk: 'Širší', cs: 'Širší' },
  narrower: { en: 'Narrower', sk: 'Užší', cs: 'Užší' },
  taller: { en: 'Longer', sk: 'Dlhší', cs: 'Delší' },
  shorter: { en: 'Shorter', sk: 'Kratší', cs: 'Kratší' },
  sizeIs: { en: '{w} × {h} cells', sk: '{w} × {h} políčok', cs: '{w} × {h} políček' },
  removeTable: { en: 'Remove the table', sk: 'Odstrániť stôl', cs: 'Odstranit stůl' },
  notPlaced: { en: 'Not on the plan yet', sk: 'Zatiaľ mimo plánu', cs: 'Zatím mimo plán' },
  place: { en: 'Place', sk: 'Umiestniť', cs: 'Umístit' },
  save: { en: 'Save', sk: 'Uložiť', cs: 'Uložit' },
  discard: { en: 'Discard changes', sk: 'Zahodiť zmeny', cs: 'Zahodit změny' },
  unsaved: { en: 'Unsaved changes', sk: 'Neuložené zmeny', cs: 'Neuložené změny' },
  saved: { en: 'Zone {name} saved.', sk: 'Zóna {name} je uložená.', cs: 'Zóna {name} je uložená.' },
  deleteZone: { en: 'Delete the zone', sk: 'Odstrániť zónu', cs: 'Odstranit zónu' },
  askDelete: { en: 'Delete zone {name}?', sk: 'Odstrániť zónu {name}?', cs: 'Odstranit zónu {name}?' },
  deleteText: {
    en: 'Its tables go with it. Open tickets keep their table names and can be moved to other tables.',
    sk: 'Jej stoly zmiznú s ňou. Otvorené účty si ponechajú názvy stolov a dajú sa presunúť na iné stoly.',
    cs: 'Její stoly zmizí s ní. Otevřené účty si ponechají názvy stolů a lze je přesunout na jiné stoly.',
  },
  deleted: { en: 'Zone {name} deleted.', sk: 'Zóna {name} je odstránená.', cs: 'Zóna {name} je odstraněná.' },
  nameRequired: { en: 'A name is required.', sk: 'Názov je povinný.', cs: 'Název je povinný.' },
  nameTwice: { en: 'Another table in this zone has this name.', sk: 'Iný stôl v tejto zóne má rovnaký názov.', cs: 'Jiný stůl v této zóně má stejný název.' },
  zoneTaken: { en: 'A zone of this name exists.', sk: 'Zóna s týmto názvom už existuje.', cs: 'Zóna s tímto názvem už existuje.' },
  readOnly: { en: 'Changing the floor plan needs the right “{right}”.', sk: 'Na zmenu plánu stolov treba právo „{right}“.', cs: 'Ke změně plánu stolů je potřeba právo „{right}“.' },
  meanwhile: { en: 'Someone else changed this zone meanwhile.', sk: 'Túto zónu medzitým zmenil niekto iný.', cs: 'Tuto zónu mezitím změnil někdo jiný.' },
  loadTheirs: { en: 'Load their version', sk: 'Načítať jeho verziu', cs: 'Načíst jeho verzi' },
  tableOnBoard: { en: 'Table {name}', sk: 'Stôl {name}', cs: 'Stůl {name}' },
  board: { en: 'Plan of {name}', sk: 'Plán zóny {name}', cs: 'Plán zóny {name}' },
});

type ZoneTable = Zone['tables'][number];
/** A zone as the editor holds it: `stored` is the name it has on the hub (null: not saved yet). */
interface Draft {
  stored: string | null;
  v?: number;
  name: string;
  order: number;
  color: string | null;
  isActive: boolean;
  tables: ZoneTable[];
}

const GRID_MAX = 999;
const SIZE_MAX = 100;
/** The plan shows at least this many cells across and down, more when tables lie beyond. */
const MIN_COLS = 16;
const MIN_ROWS = 10;
const DEFAULT_COLOR = '#2e7d32';

const draftOf = (z: Zone): Draft => ({ stored: z.name, v: z._v, name: z.name, order: z.order, color: z.color, isActive: z.isActive, tables: z.tables.map((tb) => ({ ...tb })) });
const bodyOf = (d: Draft) => ({ name: d.name.trim(), order: d.order, color: d.color, isActive: d.isActive, tables: d.tables });
const sameDraft = (a: Draft, b: Draft) => JSON.stringify(bodyOf(a)) === JSON.stringify(bodyOf(b));
const placed = (tb: ZoneTable) => tb.x !== undefined && tb.y !== undefined;
const w = (tb: ZoneTable) => tb.width ?? 1;
const h = (tb: ZoneTable) => tb.height ?? 1;
const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));

/** The first spot, row by row, where a `width`×`height` table overlaps none of `tables`. */
function freeSpot(tables: ZoneTable[], width: number, height: number, cols: number): { x: number; y: number } {
  const taken = (x: number, y: number) =>
    tables.some((tb) => placed(tb) && x < tb.x! + w(tb) + 1 && tb.x! < x + width + 1 && y < tb.y! + h(tb) + 1 && tb.y! < y + height + 1);
  for (let y = 0; y < GRID_MAX; y++) for (let x = 0; x + width <= cols; x++) if (!taken(x, y)) return { x, y };
  return { x: 0, y: 0 };
}

/** A name for a new table: one more than the highest number among the zone's names, else the count plus one. */
function nextName(tables: ZoneTable[]): string {
  const numbers = tables.map((tb) => /(\d+)$/.exec(tb.name)).filter((m): m is RegExpExecArray => !!m).map((m) => Number(m[1]));
  let n = numbers.length ? Math.max(...numbers) + 1 : tables.length + 1;
  const names = new Set(tables.map((tb) => tb.name.toLowerCase()));
  while (names.has(String(n))) n++;
  return String(n);
}

/** Index of each table whose name is empty, or held by another table of the zone too (letter case aside). */
function badNames(tables: ZoneTable[]): Map<number, 'empty' | 'twice'> {
  const out = new Map<number, 'empty' | 'twice'>();
  const count = new Map<string, number>();
  for (const tb of tables) count.set(tb.name.trim().toLowerCase(), (count.get(tb.name.trim().toLowerCase()) ?? 0) + 1);
  tables.forEach((tb, i) => {
    const key = tb.name.trim().toLowerCase();
    if (!key) out.set(i, 'empty');
    else if ((count.get(key) ?? 0) > 1) out.set(i, 'twice');
  });
  return out;
}

/** The grid with the zone's tables: drag to move, the corner handle to resize, a tap to select. */
function Board({ draft, selected, onSelect, onChange, editable }: { draft: Draft; selected: number | null; onSelect: (i: number | null) => void; onChange: (i: number, tb: ZoneTable) => void; editable: boolean }) {
  const board = useRef<HTMLDivElement>(null);
  const drag = useRef<{ i: number; mode: 'move' | 'size'; startX: number; startY: number; orig: ZoneTable; moved: boolean } | null>(null);
  const onPlan = draft.tables.filter(placed);
  const cols = Math.max(MIN_COLS, ...onPlan.map((tb) => tb.x! + w(tb) + 2));
  const rows = Math.max(MIN_ROWS, ...onPlan.map((tb) => tb.y! + h(tb) + 2));

  /** The pointer's movement since the drag began, in whole cells. */
  const cellsMoved = (e: PointerEvent) => {
    const rect = board.current!.getBoundingClientRect();
    const d = drag.current!;
    return { dx: Math.round(((e.clientX - d.startX) / rect.width) * cols), dy: Math.round(((e.clientY - d.startY) / rect.height) * rows) };
  };
  const start = (e: PointerEvent, i: number, mode: 'move' | 'size') => {
    onSelect(i);
    if (!editable) return;
    e.preventDefault();
    e.stopPropagation();
    (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
    drag.current = { i, mode, startX: e.clientX, startY: e.clientY, orig: { ...draft.tables[i] }, moved: false };
  };
  const move = (e: PointerEvent) => {
    const d = drag.current;
    if (!d) return;
    const { dx, dy } = cellsMoved(e);
    if (!dx && !dy && !d.moved) return;
    d.moved = true;
    const o = d.orig;
    if (d.mode === 'move') onChange(d.i, { ...o, x: clamp(o.x! + dx, 0, GRID_MAX - w(o) + 1), y: clamp(o.y! + dy, 0, GRID_MAX - h(o) + 1) });
    else onChange(d.i, { ...o, width: clamp(w(o) + dx, 1, SIZE_MAX), height: clamp(h(o) + dy, 1, SIZE_MAX) });
  };
  const end = () => {
    drag.current = null;
  };

  return (
    <div
      ref={board}
      class="fp-board"
      role="group"
      aria-label={t('board', { name: draft.name })}
      data-testid="board"
      data-cols={cols}
      data-rows={rows}
      style={{ aspectRatio: `${cols} / ${rows}`, backgroundSize: `${100 / cols}% ${100 / rows}%` }}
      onPointerDown={() => onSelect(null)}
      onPointerMove={move}
      onPointerUp={end}
      onPointerCancel={end}
    >
      {draft.tables.map((tb, i) =>
        placed(tb) ? (
          <div
            key={i}
            class={`fp-table${tb.shape === 'Round' ? ' round' : ''}${selected === i ? ' selected' : ''}`}
            role="button"
            tabIndex={0}
            aria-pressed={selected === i}
            aria-label={t('tableOnBoard', { name: tb.name })}
            data-testid={`table-${tb.name}`}
            data-x={tb.x}
            data-y={tb.y}
            style={{
              left: `${(tb.x! / cols) * 100}%`,
              top: `${(tb.y! / rows) * 100}%`,
              width: `${(w(tb) / cols) * 100}%`,
              height: `${(h(tb) / rows) * 100}%`,
              ...(draft.color ? { borderColor: draft.color } : {}),
            }}
            onPointerDown={(e) => start(e, i, 'move')}
            onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && onSelect(i)}
          >
            <span class="fp-table-name">{tb.name}</span>
            {tb.seats ? <span class="fp-table-seats">{tb.seats}</span> : null}
            {editable && selected === i && <span class="fp-resize" data-testid={`resize-${tb.name}`} aria-hidden="true" onPointerDown={(e) => start(e, i, 'size')} />}
          </div>
        ) : null,
      )}
    </div>
  );
}

/** The selected table's name, seats, shape, position and size, with big buttons for a finger. */
function TableInspector({ tb, index, error, onChange, onRemove, editable }: { tb: ZoneTable; index: number; error: string | null; onChange: (tb: ZoneTable) => void; onRemove: () => void; editable: boolean }) {
  const nudge = (dx: number, dy: number) => onChange({ ...tb, x: clamp((tb.x ?? 0) + dx, 0, GRID_MAX - w(tb) + 1), y: clamp((tb.y ?? 0) + dy, 0, GRID_MAX - h(tb) + 1) });
  const grow = (dw: number, dh: number) => onChange({ ...tb, width: clamp(w(tb) + dw, 1, SIZE_MAX), height: clamp(h(tb) + dh, 1, SIZE_MAX) });
  return (
    <div class="fp-inspector" data-testid="table-inspector" data-index={index}>
      <div class="fp-fields">
        <Field label={t('tableName')} value={tb.name} onChange={(v) => onChange({ ...tb, name: String(v ?? '') })} error={error} maxLength={100} disabled={!editable} testId="table-name" />
        <Field
          label={t('seats')}
          kind="number"
          integer
          min={0}
          max={999}
          value={tb.seats ?? null}
          onChange={(v) => onChange({ ...tb, seats: typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 999 ? v : undefined })}
          disabled={!editable}
          testId="table-seats"
        />
      </div>
      {editable && (
        <>
          <div class="fp-row" role="group" aria-label={t('shape')}>
            <span class="fp-label">{t('shape')}</span>
            <Button small variant={tb.shape !== 'Round' ? 'primary' : 'secondary'} aria-pressed={tb.shape !== 'Round'} onClick={() => onChange({ ...tb, shape: 'Rect' })} data-testid="shape-rect">
              {t('rect')}
            </Button>
            <Button small variant={tb.shape === 'Round' ? 'primary' : 'secondary'} aria-pressed={tb.shape === 'Round'} onClick={() => onChange({ ...tb, shape: 'Round' })} data-testid="shape-round">
              {t('round')}
            </Button>
          </div>
          <div class="fp-row" role="group" aria-label={t('move')}>
            <span class="fp-label">{t('move')}</span>
            <Button small icon="left" aria-label={t('left')} title={t('left')} onClick={() => nudge(-1, 0)} data-testid="move-left" />
            <Button small icon="up" aria-label={t('up')} title={t('up')} onClick={() => nudge(0, -1)} data-testid="move-up" />
            <Button small icon="down" aria-label={t('down')} title={t('down')} onClick={() => nudge(0, 1)} data-testid="move-down" />
            <Button small icon="right" aria-label={t('right')} title={t('right')} onClick={() => nudge(1, 0)} data-testid="move-right" />
          </div>
          <div class="fp-row" role="group" aria-label={t('size')}>
            <span class="fp-label">{t('size')}</span>
            <Button small onClick={() => grow(-1, 0)} data-testid="narrower">
              {t('narrower')}
            </Button>
            <Button small onClick={() => grow(1, 0)} data-testid="wider">
              {t('wider')}
            </Button>
            <Button small onClick={() => grow(0, -1)} data-testid="shorter">
              {t('shorter')}
            </Button>
            <Button small onClick={() => grow(0, 1)} data-testid="taller">
              {t('taller')}
            </Button>
            <span class="muted" data-testid="table-size">
              {t('sizeIs', { w: w(tb), h: h(tb) })}
            </span>
          </div>
          <div class="fp-row">
            <Button small variant="danger" icon="trash" onClick={onRemove} data-testid="remove-table">
              {t('removeTable')}
            </Button>
          </div>
        </>
      )}
    </div>
  );
}

/** One zone: its settings, its plan and the selected table, saved whole. */
function ZoneEditor({ zone, onSaved, onDeleted }: { zone: Zone | null; onSaved: (name: string) => void; onDeleted: () => void }) {
  const can = useCan();
  const initial = (): Draft => (zone ? draftOf(zone) : { stored: null, name: '', order: 0, color: DEFAULT_COLOR, isActive: true, tables: [] });
  const [draft, setDraft] = useState<Draft>(initial);
  const [base, setBase] = useState<Draft>(initial);
  const [selected, setSelected] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [theirs, setTheirs] = useState(false);
  const dirty = !sameDraft(draft, base);
  const isNew = draft.stored === null;
  const editable = isNew ? can('ZoneCreate') : can('ZoneUpdate');
  const renaming = !isNew && draft.name.trim() !== draft.stored;

  // The stored zone changed on the hub (live): taken over while untouched, announced otherwise.
  useEffect(() => {
    if (!zone || (base.stored === zone.name && base.v === zone._v)) return;
    if (dirty && base.stored === zone.name) setTheirs(true);
    else {
      setDraft(draftOf(zone));
      setBase(draftOf(zone));
      setSelected(null);
      setTheirs(false);
    }
  }, [zone?.name, zone?._v]);

  const bad = badNames(draft.tables);
  const setTable = (i: number, tb: ZoneTable) => setDraft((d) => ({ ...d, tables: d.tables.map((x, j) => (j === i ? tb : x)) }));
  const cols = Math.max(MIN_COLS, ...draft.tables.filter(placed).map((tb) => tb.x! + w(tb) + 2));
  const addTable = () => {
    const spot = freeSpot(draft.tables, 2, 2, cols);
    const tb: ZoneTable = { name: nextName(draft.tables), ...spot, width: 2, height: 2, shape: 'Rect', seats: 4 };
    setDraft((d) => ({ ...d, tables: [...d.tables, tb] }));
    setSelected(draft.tables.length);
  };
  const placeTable = (i: number) => {
    const tb = draft.tables[i];
    setTable(i, { ...tb, ...freeSpot(draft.tables, w(tb), h(tb), cols) });
    setSelected(i);
  };

  const save = async () => {
    const name = draft.name.trim();
    setNameError(name ? null : t('nameRequired'));
    if (!name || bad.size) return;
    setBusy(true);
    setError(null);
    try {
      let saved: Zone;
      if (isNew || renaming) {
        // A zone is keyed by its name: a new name is a new zone, and the old one goes once the new one is stored.
        saved = await api.post<Zone>(path('zones'), bodyOf(draft));
        if (renaming) await api.del(path('zones', draft.stored!));
      } else {
        saved = await api.put<Zone>(path('zones', draft.stored!), { ...bodyOf(draft), _v: draft.v });
      }
      const next = draftOf(saved);
      setDraft(next);
      setBase(next);
      setTheirs(false);
      toast(t('saved', { name: saved.name }));
      onSaved(saved.name);
    } catch (e) {
      const member = e instanceof ApiError ? e.errors[0] : undefined;
      if (member?.memberName === 'name') setNameError(member.code === 'Unique' ? t('zoneTaken') : member.message);
      else if (e instanceof ApiError && e.status === 409) setError(CONFLICT());
      else setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    const ok = await confirm({ title: t('askDelete', { name: draft.stored! }), text: t('deleteText'), confirm: t('deleteZone'), danger: true });
    if (!ok) return;
    try {
      await api.del(path('zones', draft.stored!));
      toast(t('deleted', { name: draft.stored! }));
      onDeleted();
    } catch (e) {
      setError(describeError(e));
    }
  };

  const sel = selected !== null && selected < draft.tables.length ? selected : null;
  const unplaced = draft.tables.map((tb, i) => [tb, i] as const).filter(([tb]) => !placed(tb));
  return (
    <div class="fp-zone" data-testid="zone-editor">
      {!editable && <Notice tone="info">{t('readOnly', { right: isNew ? 'ZoneCreate' : 'ZoneUpdate' })}</Notice>}
      {theirs && (
        <Notice tone="warn">
          {t('meanwhile')}{' '}
          <Button
            small
            onClick={() => {
              setDraft(draftOf(zone!));
              setBase(draftOf(zone!));
              setTheirs(false);
            }}
          >
            {t('loadTheirs')}
          </Button>
        </Notice>
      )}
      <div class="fp-fields fp-zone-fields">
        <Field label={t('zoneName')} value={draft.name} onChange={(v) => setDraft({ ...draft, name: String(v ?? '') })} error={nameError} required maxLength={100} disabled={!editable || (!isNew && !(can('ZoneCreate') && can('ZoneDelete')))} testId="zone-name" />
        <Field label={t('order')} kind="number" integer value={draft.order} onChange={(v) => setDraft({ ...draft, order: typeof v === 'number' && Number.isInteger(v) ? v : 0 })} hint={t('orderHint')} disabled={!editable} testId="zone-order" />
        <div class="field">
          <label class="field-label" for="fp-color">
            {t('color')}
          </label>
          <div class="fp-row">
            <input
              id="fp-color"
              type="color"
              class="fp-color"
              value={draft.color ?? DEFAULT_COLOR}
              disabled={!editable || draft.color === null}
              onInput={(e) => setDraft({ ...draft, color: (e.currentTarget as HTMLInputElement).value.toLowerCase() })}
              data-testid="zone-color"
            />
            <label class="fp-check">
              <input type="checkbox" checked={draft.color === null} disabled={!editable} onChange={(e) => setDraft({ ...draft, color: (e.currentTarget as HTMLInputElement).checked ? null : DEFAULT_COLOR })} data-testid="zone-no-color" />
              {t('noColor')}
            </label>
          </div>
        </div>
        <Field label={t('active')} kind="switch" value={draft.isActive} onChange={(v) => setDraft({ ...draft, isActive: !!v })} disabled={!editable} testId="zone-active" />
      </div>

      <Board draft={draft} selected={sel} onSelect={setSelected} onChange={setTable} editable={editable} />

      {unplaced.length > 0 && (
        <div class="fp-row fp-tray">
          <span class="fp-label">{t('notPlaced')}</span>
          {unplaced.map(([tb, i]) => (
            <Button key={i} small onClick={() => (editable ? placeTable(i) : setSelected(i))} data-testid={`place-${tb.name}`}>
              {tb.name} · {t('place')}
            </Button>
          ))}
        </div>
      )}

      {sel !== null && (
        <TableInspector
          tb={draft.tables[sel]}
          index={sel}
          error={bad.get(sel) === 'empty' ? t('nameRequired') : bad.get(sel) === 'twice' ? t('nameTwice') : null}
          editable={editable}
          onChange={(tb) => setTable(sel, tb)}
          onRemove={() => {
            setDraft((d) => ({ ...d, tables: d.tables.filter((_, j) => j !== sel) }));
            setSelected(null);
          }}
        />
      )}
      {sel === null && bad.size > 0 && <Notice tone="bad">{t('nameTwice')}</Notice>}
      {error && <Notice tone="bad">{error}</Notice>}

      {editable && (
        <div class="fp-row fp-actions">
          <Button icon="plus" onClick={addTable} data-testid="add-table">
            {t('addTable')}
          </Button>
          <span class="fp-spacer" />
          {dirty && <Badge tone="warn">{t('unsaved')}</Badge>}
          {dirty && !isNew && (
            <Button
              variant="ghost"
              onClick={() => {
                setDraft(base);
                setSelected(null);
                setNameError(null);
                setError(null);
              }}
              data-testid="discard-zone"
            >
              {t('discard')}
            </Button>
          )}
          {!isNew && can('ZoneDelete') && (
            <Button variant="danger" icon="trash" onClick={() => void remove()} data-testid="delete-zone">
              {t('deleteZone')}
            </Button>
          )}
          <Button variant="primary" icon="check" busy={busy} disabled={!dirty && !isNew} onClick={() => void save()} data-testid="save-zone">
            {t('save')}
          </Button>
        </div>
      )}
    </div>
  );
}

/** The few styles of the floor plan, kept with this page (the shared CSS is another's). */
const STYLE = `
.fp-zones { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.fp-chip { display: inline-flex; align-items: center; gap: 8px; min-height: 44px; padding: 6px 14px; border-radius: 22px; border: 1px solid var(--line, #d0d7de); background: var(--surface, #fff); color: inherit; font: inherit; cursor: pointer; }
.fp-chip.current { border-color: var(--accent, #2563eb); box-shadow: inset 0 0 0 1px var(--accent, #2563eb); font-weight: 600; }
.fp-chip.hidden-zone { opacity: 0.6; }
.fp-dot { width: 14px; height: 14px; border-radius: 50%; border: 1px solid rgba(0,0,0,.2); background: transparent; }
.fp-zone { display: flex; flex-direction: column; gap: 14px; }
.fp-fields { display: grid; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr)); gap: 10px; align-items: start; }
.fp-row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.fp-row .btn { min-height: 44px; min-width: 44px; }
.fp-label { font-weight: 600; min-width: 5.5em; }
.fp-spacer { flex: 1; }
.fp-color { width: 56px; height: 44px; padding: 2px; border: 1px solid var(--line, #d0d7de); border-radius: 8px; background: none; }
.fp-check { display: inline-flex; gap: 6px; align-items: center; }
.fp-board { position: relative; width: 100%; border: 1px solid var(--line, #d0d7de); border-radius: 10px; overflow: hidden; touch-action: none; user-select: none;
  background-color: var(--surface, #fff);
  background-image: linear-gradient(to right, rgba(0,0,0,.07) 1px, transparent 1px), linear-gradient(to bottom, rgba(0,0,0,.07) 1px, transparent 1px); }
.fp-table { position: absolute; box-sizing: border-box; display: flex; flex-direction: column; align-items: center; justify-content: center; padding: 2px;
  border: 3px solid var(--accent, #2563eb); border-radius: 8px; background: var(--surface-2, #f4f6f8); cursor: grab; touch-action: none; overflow: hidden; }
.fp-table.round { border-radius: 50%; }
.fp-table.selected { outline: 3px solid #111; outline-offset: 1px; z-index: 1; }
.fp-table-name { font-weight: 700; font-size: clamp(0.7rem, 1.6vw, 1.05rem); line-height: 1.1; text-align: center; word-break: break-word; }
.fp-table-seats { font-size: 0.75rem; opacity: 0.7; }
.fp-resize { position: absolute; right: 0; bottom: 0; width: 22px; height: 22px; background: #111; border-top-left-radius: 8px; cursor: nwse-resize; touch-action: none; }
.fp-table.round .fp-resize { right: 12%; bottom: 12%; border-radius: 6px; }
.fp-inspector { display: flex; flex-direction: column; gap: 10px; padding: 12px; border: 1px solid var(--line, #d0d7de); border-radius: 10px; }
.fp-actions { border-top: 1px solid var(--line, #d0d7de); padding-top: 12px; }
`;

export function FloorPlan() {
  const can = useCan();
  const zones = useAll<Zone>('zones', { sort: 'order,name' });
  const [q, setQuery] = useQuery();
  const adding = q.get('new') === '1';
  const list = zones.data ?? [];
  const asked = q.get('zone');
  const named = list.find((z) => z.name === asked);
  // A zone just saved under a new name shows once the list has it, not the first zone meanwhile.
  const waiting = !adding && !!asked && !named && zones.loading;
  const current = adding ? null : (named ?? list[0] ?? null);
  const show = (name: string | null) => setQuery({ zone: name, new: null });
  return (
    <div class="page">
      <style>{STYLE}</style>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <Card>
        {!zones.data || waiting ? (
          zones.error ? <Notice tone="bad">{zones.error}</Notice> : <Spinner />
        ) : (
          <div class="fp-zone">
            <div class="fp-zones" role="tablist" aria-label={t('zones')}>
              {list.map((z) => (
                <button
                  key={z.name}
                  type="button"
                  role="tab"
                  aria-selected={current?.name === z.name}
                  class={`fp-chip${current?.name === z.name ? ' current' : ''}${z.isActive ? '' : ' hidden-zone'}`}
                  onClick={() => show(z.name)}
                  data-testid={`zone-${z.name}`}
                >
                  <span class="fp-dot" style={z.color ? { background: z.color } : {}} aria-hidden="true" />
                  {z.name}
                  <span class="muted">{t('tables', { n: z.tables.length })}</span>
                  {!z.isActive && <Badge>{t('inactive')}</Badge>}
                </button>
              ))}
              {adding && (
                <span class="fp-chip current" role="tab" aria-selected="true">
                  {t('newZone')}
                </span>
              )}
              {can('ZoneCreate') && !adding && (
                <Button icon="plus" onClick={() => setQuery({ zone: null, new: '1' })} data-testid="add-zone">
                  {t('addZone')}
                </Button>
              )}
            </div>
            {!current && !adding ? (
              <Empty icon="table" title={t('noZones')}>
                {t('noZonesHint')}
              </Empty>
            ) : (
              <ZoneEditor
                key={adding ? '\u0000new' : current!.name}
                zone={current}
                onSaved={(name) => {
                  zones.reload();
                  show(name);
                }}
                onDeleted={() => {
                  zones.reload();
                  show(null);
                }}
              />
            )}
          </div>
        )}
      </Card>
    </div>
  );
}
