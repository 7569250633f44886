/** A fiscal receipt as the close hands it to a driver: two Gulyás paid in cash. Override what a test is about. */
import type { Receipt } from '../../drivers/fiscal/types.js';

export function sampleReceipt(over: Partial<Receipt> = {}): Receipt {
  return {
    reference: 'T1',
    operator: 'anna',
    lines: [{ name: 'Gulyás', quantity: '2', unitPrice: '6.9', vatRate: '20', vatCategory: 1, discountRate: '0', total: '13.80' }],
    discountRate: '0',
    total: '13.80',
    payments: [{ kind: 'Cash', name: 'Cash', amount: '20.00' }],
    change: '6.20',
    ...over,
  };
}
