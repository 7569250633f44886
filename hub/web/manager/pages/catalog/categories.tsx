/**
 * Categories (issue 28): made, renamed, ordered and coloured here; the order and colour are what a
 * register's menu grid shows. A rename goes through the hub's rename (POST /api/categories/{name}/rename),
 * which takes the category's products and routings with it in one transaction. Where a category's
 * orders go (kitchen printers and displays) is chosen here too: it is the order endpoints'
 * `categoryNames`, written to each endpoint whose choice changed.
 */
import { useMemo, useState } from 'preact/hooks';
import { Editor } from '../../components/Editor';
import { Field } from '../../components/Field';
import { Empty, toast } from '../../components/ui';
import { Badge, Button, Card, Notice, Spinner } from '../../../shared/ui';
import { api, ApiError, describeError, path } from '../../lib/api';
import { useAll } from '../../lib/data';
import { checks } from '../../lib/form';
import { useCan } from '../../lib/session';
import { messages, plural } from '../../../shared/i18n';
import type { Category, OrderEndpoint, Plu } from '../../../shared/types';
import { rightWord } from '../../lib/rights-words';
import { useEditParam } from '../../lib/router';

const t = messages({
  categories: { en: 'Categories', sk: 'Kategórie', cs: 'Kategorie' },
  newCategory: { en: 'New category', sk: 'Nová kategória', cs: 'Nová kategorie' },
  noun: { en: 'Category', sk: 'Kategória', cs: 'Kategorie' },
  order: { en: 'Order', sk: 'Poradie', cs: 'Pořadí' },
  name: { en: 'Name', sk: 'Názov', cs: 'Název' },
  description: { en: 'Description', sk: 'Popis', cs: 'Popis' },
  color: { en: 'Colour', sk: 'Farba', cs: 'Barva' },
  colorHint: { en: 'The colour of its tile on the registers.', sk: 'Farba jej dlaždice na pokladniach.', cs: 'Barva její dlaždice na pokladnách.' },
  orderHint: { en: 'Lower numbers come first on the registers; the arrows in the list set it too.', sk: 'Nižšie čísla sú na pokladniach skôr; nastavíte ho aj šípkami v zozname.', cs: 'Nižší čísla jsou na pokladnách dříve; nastavíte ho i šipkami v seznamu.' },
  products: { en: 'Products', sk: 'Produkty', cs: 'Produkty' },
  ordersGoTo: { en: 'Orders go to', sk: 'Objednávky idú na', cs: 'Objednávky jdou na' },
  ordersGoToHint: { en: 'Kitchen printers and displays that get every product of this category.', sk: 'Kuchynské tlačiarne a displeje, ktoré dostanú každý produkt tejto kategórie.', cs: 'Kuchyňské tiskárny a displeje, které dostanou každý produkt této kategorie.' },
  routingNeedsRight: { en: 'Changing where orders go needs the right “{right}”.', sk: 'Na zmenu, kam idú objednávky, treba právo „{right}“.', cs: 'Ke změně, kam jdou objednávky, je třeba právo „{right}“.' },
  noEndpoints: { en: 'No kitchen printers or displays yet.', sk: 'Zatiaľ žiadne kuchynské tlačiarne ani displeje.', cs: 'Zatím žádné kuchyňské tiskárny ani displeje.' },
  onSale: { en: 'Active', sk: 'Aktívna', cs: 'Aktivní' },
  inactive: { en: 'Inactive', sk: 'Neaktívna', cs: 'Neaktivní' },
  none: { en: 'No categories yet', sk: 'Zatiaľ žiadne kategórie', cs: 'Zatím žádné kategorie' },
  noneText: { en: 'A category groups products on the registers (Drinks, Soups…), sums their sales in the reports and can send all of them to one printer.', sk: 'Kategória zoskupuje produkty na pokladniach (Nápoje, Polievky…), sčíta ich tržby v prehľadoch a môže ich všetky posielať na jednu tlačiareň.', cs: 'Kategorie seskupuje produkty na pokladnách (Nápoje, Polévky…), sčítá jejich tržby v přehledech a může je všechny posílat na jednu tiskárnu.' },
  up: { en: 'Move {name} up', sk: 'Posunúť {name} vyššie', cs: 'Posunout {name} výš' },
  down: { en: 'Move {name} down', sk: 'Posunúť {name} nižšie', cs: 'Posunout {name} níž' },
  moved: { en: 'Order saved.', sk: 'Poradie uložené.', cs: 'Pořadí uloženo.' },
  noSlash: { en: 'A name cannot hold "/".', sk: 'Názov nesmie obsahovať „/“.', cs: 'Název nesmí obsahovat „/“.' },
  renameHint: { en: 'Renaming keeps its products and printers; past sales keep the old name.', sk: 'Premenovanie ponechá jej produkty aj tlačiarne; minulé tržby ostanú pod starým názvom.', cs: 'Přejmenování ponechá její produkty i tiskárny; minulé tržby zůstanou pod starým názvem.' },
});

const productCount = (n: number) =>
  plural(n, {
    one: { en: '{n} product', sk: '{n} produkt', cs: '{n} produkt' },
    few: { en: '{n} products', sk: '{n} produkty', cs: '{n} produkty' },
    other: { en: '{n} products', sk: '{n} produktov', cs: '{n} produktů' },
  });

/** A category's colour as a small square (a hatched one without a colour). */
export function Swatch({ color }: { color: string | null | undefined }) {
  return <span class={`swatch${color ? '' : ' swatch-none'}`} style={color ? { background: color } : undefined} aria-hidden="true" />;
}

/** The categories in the registers' order: by `order`, ties by name (the hub's `$sort=order,name`). */
const GRID_ORDER = { sort: 'order,name' };

export function Categories() {
  const [edit, setEdit] = useEditParam();
  const can = useCan();
  const cats = useAll<Category>('categories', GRID_ORDER);
  const plus = useAll<Plu>('plus', {}, ['plus']);
  const endpoints = useAll<OrderEndpoint>('orderendpoints');
  const [moving, setMoving] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const rows = cats.data ?? [];
  const counts = useMemo(() => {
    const m = new Map<string, number>();
    for (const p of plus.data ?? []) if (p.category) m.set(p.category, (m.get(p.category) ?? 0) + 1);
    return m;
  }, [plus.data]);
  const routedTo = (name: string) => (endpoints.data ?? []).filter((e) => (e.categoryNames ?? []).includes(name)).map((e) => e.name);
  const mayOrder = can('PluUpdate');

  /** Moves one place up or down: the list is numbered 1…n in its new order, and the categories whose number changed are saved. */
  const move = async (index: number, by: -1 | 1) => {
    const list = [...rows];
    const [c] = list.splice(index, 1);
    list.splice(index + by, 0, c);
    setMoving(c.name);
    setError(null);
    try {
      for (const [i, cat] of list.entries()) {
        if (cat.order !== i + 1) await api.put(path('categories', cat.name), { ...cat, order: i + 1 });
      }
      toast(t('moved'));
    } catch (e) {
      setError(describeError(e));
    } finally {
      setMoving(null);
      cats.reload();
    }
  };

  return (
    <>
      <Card
        title={t('categories')}
        actions={
          can('PluCreate') && (
            <Button variant="primary" icon="plus" onClick={() => setEdit('new')} data-testid="new-category">
              {t('newCategory')}
            </Button>
          )
        }
      >
        {error && <Notice tone="bad">{error}</Notice>}
        {!cats.data ? (
          cats.error ? <Notice tone="bad">{cats.error}</Notice> : <Spinner />
        ) : rows.length === 0 ? (
          <Empty title={t('none')}>{t('noneText')}</Empty>
        ) : (
          <div class="table-scroll">
            <table aria-label={t('categories')} data-testid="table-categories">
              <thead>
                <tr>
                  <th class="al-right">{t('order')}</th>
                  <th>{t('name')}</th>
                  <th class="al-right">{t('products')}</th>
                  <th>{t('ordersGoTo')}</th>
                  <th class="secondary">{t('description')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((c, i) => (
                  <tr key={c.name} class={`clickable${edit === c.name ? ' selected' : ''}`} tabIndex={0} onClick={() => setEdit(c.name)} onKeyDown={(e) => e.key === 'Enter' && e.target === e.currentTarget && setEdit(c.name)} data-testid={`category-${c.name}`}>
                    <td class="al-right" data-label={t('order')}>
                      <span class="order-buttons">
                        {mayOrder && (
                          <>
                            <Button small variant="ghost" icon="up" aria-label={t('up', { name: c.name })} disabled={i === 0 || moving !== null} onClick={(e: Event) => (e.stopPropagation(), void move(i, -1))} />
                            <Button small variant="ghost" icon="down" aria-label={t('down', { name: c.name })} disabled={i === rows.length - 1 || moving !== null} onClick={(e: Event) => (e.stopPropagation(), void move(i, 1))} />
                          </>
                        )}
                        <span class="num muted">{c.order}</span>
                      </span>
                    </td>
                    <td data-label={t('name')}>
                      <Swatch color={c.color} />
                      <b>{c.name}</b> {!c.isActive && <Badge>{t('inactive')}</Badge>}
                    </td>
                    <td class="al-right num" data-label={t('products')}>
                      {productCount(counts.get(c.name) ?? 0)}
                    </td>
                    <td data-label={t('ordersGoTo')}>{routedTo(c.name).join(', ') || '—'}</td>
                    <td class="secondary" data-label={t('description')}>
                      {c.description || ''}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      {edit && <CategoryEditor editKey={edit === 'new' ? null : edit} endpoints={endpoints.data ?? []} nextOrder={Math.max(0, ...rows.map((c) => c.order)) + 1} onClose={() => setEdit(null)} />}
    </>
  );
}

function CategoryEditor({ editKey, endpoints, nextOrder, onClose }: { editKey: string | null; endpoints: OrderEndpoint[]; nextOrder: number; onClose: () => void }) {
  const can = useCan();
  const routedBefore = useMemo(() => (editKey ? endpoints.filter((e) => (e.categoryNames ?? []).includes(editKey)).map((e) => e.name) : []), [editKey, endpoints]);
  // The endpoints arrive (and come again, as any of them changes) after the editor may have opened:
  // shown as they are until the manager ticks something (`chosen`), then the manager's choice. Not a
  // copy taken in by an effect: one that ran late took a tick just made back.
  const [chosen, setChosen] = useState<string[] | null>(null);
  const routes = chosen ?? routedBefore;
  const mayRoute = can('OrderEndpointUpdate');

  /** Each endpoint whose choice changed gets the category added or taken away (read fresh: a rename changed them). */
  const route = async (name: string) => {
    for (const e of endpoints) {
      const want = routes.includes(e.name);
      const had = routedBefore.includes(e.name);
      if (want === had) continue;
      const fresh = await api.get<OrderEndpoint>(path('orderendpoints', e.name));
      const names = (fresh.categoryNames ?? []).filter((n) => n !== name && n !== editKey);
      await api.put(path('orderendpoints', e.name), { ...fresh, categoryNames: want ? [...names, name] : names });
    }
  };

  return (
    <Editor<Category>
      resource="categories"
      editKey={editKey}
      noun={t('noun')}
      title={(v, isNew) => (isNew ? t('newCategory') : v.name || t('noun'))}
      defaults={{ name: '', description: '', color: null, order: nextOrder, isActive: true }}
      rights={{ create: 'PluCreate', update: 'PluUpdate', delete: 'PluDelete' }}
      save={async (body, { isNew, key }) => {
        const b = body as Category;
        let saved: Category;
        if (isNew) saved = await api.post<Category>(path('categories'), b);
        else {
          let v = b._v;
          // A new name first, through the hub's rename: it moves the products and routings with it.
          if (b.name !== key) {
            try {
              v = (await api.post<Category>(`${path('categories', key!)}/rename`, { name: b.name, _v: v }))._v;
            } catch (e) {
              // The rename's refusal of the name belongs to the name field.
              if (e instanceof ApiError && e.status === 400) throw new ApiError(400, { ...e.problem, errors: (e.problem.errors ?? []).map((m) => ({ ...m, memberName: 'name' })) });
              throw e;
            }
          }
          saved = await api.put<Category>(path('categories', b.name), { ...b, _v: v });
        }
        if (mayRoute) await route(saved.name);
        return saved;
      }}
      onClose={onClose}
    >
      {(form, { isNew, canEdit }) => (
        <>
          <div class="form-grid">
            <Field form={form} name="name" label={t('name')} required validate={checks.pattern(/^[^/]*$/, t('noSlash'))} hint={isNew ? undefined : t('renameHint')} testId="category-name" />
            <Field form={form} name="order" label={t('order')} kind="number" integer min={0} max={2147483647} required hint={t('orderHint')} testId="category-order" />
            <Field form={form} name="color" label={t('color')} kind="color" nullable hint={t('colorHint')} testId="category-color" />
            <Field form={form} name="isActive" label={t('onSale')} kind="switch" />
            <Field form={form} name="description" label={t('description')} kind="textarea" wide />
          </div>
          <Field
            label={t('ordersGoTo')}
            kind="checklist"
            options={endpoints.map((e) => ({ value: e.name, label: e.name }))}
            value={routes}
            onChange={(v) => setChosen(v as string[])}
            disabled={!canEdit || !mayRoute}
            hint={!endpoints.length ? t('noEndpoints') : mayRoute ? t('ordersGoToHint') : t('routingNeedsRight', { right: rightWord('OrderEndpointUpdate') })}
            testId="category-routes"
          />
        </>
      )}
    </Editor>
  );
}
