/**
 * Text a person reads, in each of the hub's languages (English, Slovak, Czech): how a driver or a
 * printer model names itself to the manager. Plain data: the hub's catalogs and the pages' own
 * (hub/web/shared/i18n.ts `Entry`) have the same shape, so the pages take it as it is.
 */
export interface Words {
  en: string;
  sk: string;
  cs: string;
}
