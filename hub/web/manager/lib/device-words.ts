/**
 * What the hub reports of its devices, in the page's language (issue 28). A printer's or a fiscal
 * device's `lastError` is the hub's record — a fault code of the fixed set (ARCHITECTURE "Devices"),
 * the device's own words, its vendor code, and what the print queue does about it — kept in English
 * in the database and the log; the page says the code and the queue's part in words and keeps the
 * device's own message beside them, untranslated, as the detail a technician reads.
 */
import { FISCAL_DRIVERS, PRINTER_MODELS, type FiscalDriverWords } from '../../shared/drivers.js';
import { messages, pick } from '../../shared/i18n.js';

const t = messages({
  OFFLINE: { en: 'The device does not answer (off, unplugged or not on the network)', sk: 'Zariadenie neodpovedá (vypnuté, odpojené alebo mimo siete)', cs: 'Zařízení neodpovídá (vypnuté, odpojené nebo mimo síť)' },
  TIMEOUT: { en: 'The device did not answer in time', sk: 'Zariadenie neodpovedalo včas', cs: 'Zařízení neodpovědělo včas' },
  BUSY: { en: 'The device is busy', sk: 'Zariadenie je zaneprázdnené', cs: 'Zařízení je zaneprázdněné' },
  PAPER_OUT: { en: 'Out of paper', sk: 'Došiel papier', cs: 'Došel papír' },
  COVER_OPEN: { en: 'The cover is open', sk: 'Kryt je otvorený', cs: 'Kryt je otevřený' },
  FISCAL_MEMORY_FULL: { en: 'The fiscal memory is full', sk: 'Fiškálna pamäť je plná', cs: 'Fiskální paměť je plná' },
  REJECTED: { en: 'The device refused the command', sk: 'Zariadenie príkaz odmietlo', cs: 'Zařízení příkaz odmítlo' },
  PROTOCOL: { en: 'The device answered something the hub does not understand', sk: 'Zariadenie odpovedalo niečo, čomu hub nerozumie', cs: 'Zařízení odpovědělo něco, čemu hub nerozumí' },
  reprinted: { en: 'it is printed again, marked REPRINT', sk: 'vytlačí sa znova s označením REPRINT', cs: 'vytiskne se znovu s označením REPRINT' },
  insidePrinter: { en: 'the job is inside the printer and finishes once it is fixed', sk: 'úloha je v tlačiarni a dokončí sa, keď sa to odstráni', cs: 'úloha je v tiskárně a dokončí se, až se to odstraní' },
  sentTimes: { en: 'sent {n} times without a confirmation', sk: 'odoslané {n}-krát bez potvrdenia', cs: 'odesláno {n}krát bez potvrzení' },
  CashRegister: { en: 'Cash register', sk: 'Pokladňa', cs: 'Pokladna' },
  PDA: { en: 'Waiter’s handheld (PDA)', sk: 'Čašnícky terminál (PDA)', cs: 'Číšnický terminál (PDA)' },
  BackOffice: { en: 'Back office', sk: 'Kancelária (back office)', cs: 'Kancelář (back office)' },
  Tool: { en: 'Kitchen display or tool', sk: 'Kuchynský displej alebo nástroj', cs: 'Kuchyňský displej nebo nástroj' },
  tablet: { en: 'Tablet (kitchen display)', sk: 'Tablet (kuchynský displej)', cs: 'Tablet (kuchyňský displej)' },
  hubStopped: { en: 'The hub stopped while this job was printing', sk: 'Hub sa zastavil počas tlače tejto úlohy', cs: 'Hub se zastavil během tisku této úlohy' },
});

const CODES = ['OFFLINE', 'TIMEOUT', 'BUSY', 'PAPER_OUT', 'COVER_OPEN', 'FISCAL_MEMORY_FULL', 'REJECTED', 'PROTOCOL'] as const;
type Code = (typeof CODES)[number];

/** The print queue's own clause after a fault, in words. */
function clause(text: string): string {
  if (text === 'it is printed again, marked REPRINT') return t('reprinted');
  if (text === 'the job is inside the printer and finishes once it is fixed') return t('insidePrinter');
  const sent = /^sent (\d+) times without a confirmation$/.exec(text);
  return sent ? t('sentTimes', { n: sent[1] }) : text;
}

/**
 * A device's last error as a person reads it: "Došiel papier (paper end; 0x04) — vytlačí sa znova…".
 * Text the hub did not make from a fault code is shown as it is.
 */
export function deviceError(text: string): string {
  const stopped = /^The hub stopped while this job was printing; (.*?)\.?$/.exec(text);
  if (stopped) return `${t('hubStopped')}; ${clause(stopped[1])}.`;
  const m = /^([A-Z_]+): (.*)$/.exec(text);
  if (!m || !(CODES as readonly string[]).includes(m[1])) return text;
  const [detail, ...clauses] = m[2].split('; ');
  const said = t(m[1] as Code);
  const own = detail.trim() ? ` (${detail.trim()})` : '';
  return `${said}${own}${clauses.length ? ` — ${clauses.map(clause).join('; ')}` : ''}`;
}

const ENVS = ['CashRegister', 'PDA', 'BackOffice', 'Tool'] as const;

/** A device's kind (its envName) in words. */
export const envWord = (env: string): string => ((ENVS as readonly string[]).includes(env) ? t(env as (typeof ENVS)[number]) : env);

/** A fiscal driver as it describes itself (shared/drivers.ts), or undefined for a name none has. */
export const fiscalDriver = (name: string): FiscalDriverWords | undefined => FISCAL_DRIVERS.find((d) => d.name === name);

/** A fiscal device's driver in words: its own label; a name no driver has, as it is. */
export const driverWord = (name: string): string => {
  const d = fiscalDriver(name);
  return d ? pick(d.label) : name;
};

/** An order endpoint's type in words: the model with its printer's name ("TM88 · Epson TM-T88"), or a kitchen display. */
export const endpointTypeWord = (type: string): string => {
  if (type === 'Tablet') return t('tablet');
  const model = PRINTER_MODELS.find((m) => m.name === type);
  return model ? `${model.name} · ${pick(model.label)}` : type;
};
