/**
 * What the hub records of a device's last error, said in the page's language (issue 28): the fault
 * code and the print queue's clauses in words, the device's own message kept as the detail; text the
 * hub did not make from a fault code shown as it is.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError, describeError } from '../../hub/web/manager/lib/api.js';
import { deviceError, envWord } from '../../hub/web/manager/lib/device-words.js';
import { setLanguage } from '../../hub/web/shared/i18n.js';

afterAll(() => setLanguage('en'));

describe('device errors in words', () => {
  it('says the fault and what the queue does, in Slovak and Czech, keeping the device’s own words', () => {
    setLanguage('sk');
    expect(deviceError('PAPER_OUT: paper end (0x0C); it is printed again, marked REPRINT')).toBe('Došiel papier (paper end (0x0C)) — vytlačí sa znova s označením REPRINT');
    expect(deviceError('OFFLINE: connect ECONNREFUSED 127.0.0.1:9101')).toBe('Zariadenie neodpovedá (vypnuté, odpojené alebo mimo siete) (connect ECONNREFUSED 127.0.0.1:9101)');
    expect(deviceError('TIMEOUT: no status reply; sent 3 times without a confirmation')).toBe('Zariadenie neodpovedalo včas (no status reply) — odoslané 3-krát bez potvrdenia');
    expect(deviceError('The hub stopped while this job was printing; it is printed again, marked REPRINT.')).toBe('Hub sa zastavil počas tlače tejto úlohy; vytlačí sa znova s označením REPRINT.');
    expect(envWord('Tool')).toBe('Kuchynský displej alebo nástroj');
    setLanguage('cs');
    expect(deviceError('COVER_OPEN: cover; the job is inside the printer and finishes once it is fixed')).toBe('Kryt je otevřený (cover) — úloha je v tiskárně a dokončí se, až se to odstraní');
  });

  it('shows text that is not one of the hub’s faults as it is', () => {
    setLanguage('sk');
    expect(deviceError('eKasa: certifikát expiroval')).toBe('eKasa: certifikát expiroval');
    expect(deviceError('SOMETHING: else')).toBe('SOMETHING: else');
  });
});

describe('a device that is unavailable, as the page says it', () => {
  it('keeps the hub’s sentence, says the fault in words and adds only the advice (no mixed languages, nothing said twice)', () => {
    setLanguage('sk');
    const problem = { status: 503, errorCode: 9, detail: "Fiškálne zariadenie 'FP1' nie je dostupné (REJECTED: eKasa: Returned item without the original receipt id (EKASA-12)). Nič sa nezmenilo." };
    expect(describeError(new ApiError(503, problem))).toBe(
      "Fiškálne zariadenie 'FP1' nie je dostupné (Zariadenie príkaz odmietlo (eKasa: Returned item without the original receipt id (EKASA-12))). Nič sa nezmenilo. Skúste to o chvíľu znova.",
    );
  });

  it('names a missing right in words, whatever language the hub said it in', () => {
    setLanguage('sk');
    const problem = { status: 403, errorCode: 2, detail: 'Táto operácia vyžaduje právo StockTakingClose.' };
    expect(describeError(new ApiError(403, problem))).toBe('Na toto nemáte oprávnenie: treba právo „Uzatvárať inventúry (opraviť sklad)“. Požiadajte majiteľa, aby vám ho pridelil.');
  });
});
