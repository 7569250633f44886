/** The bench's ticket body (scripts/bench.ts, scripts/wal-per-write.ts): items of the bench store's plus, stock "Menu". */
export const benchTicketBody = (codes: number[], tableName = 'Bench') => ({
  name: `Table ${tableName}`,
  location: { tableName, zoneName: 'Terrace' },
  items: codes.map((code, i) => ({ id: i + 1, plu: { code, stockName: 'Menu' }, quantity: 1 })),
});
