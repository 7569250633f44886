/** Enumerations of the contract, for the manager page's selects. */
export const ENUMS = {
  envName: ['BackOffice', 'CashRegister', 'PDA', 'Tool'],
  paymentCategory: ['Cash', 'CreditCard', 'Voucher', 'Other'],
  pluType: ['StockItem', 'Recipe', 'Service', 'Container'],
  orderEndpointType: ['TM88', 'SRP350', 'Generic', 'TSP650', 'TSP100', 'Tablet'],
  fiscalDriver: ['simulator', 'datecs', 'escpos'],
  transferType: ['Income', 'Outcome', 'Transfer', 'Sale', 'Invoice', 'Correction'],
  postableTransferType: ['Income', 'Outcome', 'Transfer', 'Invoice'],
  periodUnit: ['Day', 'Week', 'Month', 'Year'],
} as const;

export const options = (values: readonly string[], label: (v: string) => string = (v) => v) => values.map((v) => ({ value: v, label: label(v) }));
