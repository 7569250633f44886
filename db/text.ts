/**
 * Text folding for search (issue 21): lower case without accents, so "stastny" finds "Šťastný" and
 * "halusky" finds "Halušky". Registered as the SQL function `casefold` (db/client.ts), and used on the
 * query's side with the same function, so both sides fold alike.
 */
const SPECIAL: Record<string, string> = { ß: 'ss', ł: 'l', đ: 'd', ø: 'o', æ: 'ae', œ: 'oe', ı: 'i', ħ: 'h', ŧ: 't' };

export function foldText(text: string): string {
  const lower = text.toLocaleLowerCase('und');
  // Decomposed, the accents are combining marks on their own: drop them.
  const bare = lower.normalize('NFD').replace(/\p{Mn}/gu, '');
  return /[ßłđøæœıħŧ]/.test(bare) ? bare.replace(/[ßłđøæœıħŧ]/g, (c) => SPECIAL[c]) : bare;
}
