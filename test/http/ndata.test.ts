import { describe, expect, it } from 'vitest';
import { HubError } from '../../hub/http/errors.js';
import { parseFilter, parseSort, splitQuoted, type FilterSpec } from '../../hub/http/ndata.js';

const TZ = 'Europe/Bratislava';
const STR: FilterSpec = { type: 'string' };
const INT: FilterSpec = { type: 'int' };
const DEC: FilterSpec = { type: 'decimal' };
const BOOL: FilterSpec = { type: 'bool' };
const DT: FilterSpec = { type: 'datetime' };
const ENUM: FilterSpec = { type: 'enum', enumValues: ['Cash', 'CreditCard', 'Voucher'] };
const LIST: FilterSpec = { type: 'stringList' };

const parse = (text: string, spec: FilterSpec = STR, member = 'Name') => parseFilter(member, text, spec, TZ);

/** Runs `fn`, expects a HubError 400 naming `member`, and returns it. */
function refused(fn: () => unknown, member: string): HubError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(HubError);
  const err = caught as HubError;
  expect(err.status).toBe(400);
  expect(err.errorCode).toBe(3);
  expect(err.errors?.[0]?.memberName).toBe(member);
  return err;
}

describe('NData operators', () => {
  it.each([
    ['eq:a', 'eq'],
    ['ne:a', 'ne'],
    ['neq:a', 'ne'],
    ['gt:a', 'gt'],
    ['ge:a', 'ge'],
    ['gte:a', 'ge'],
    ['lt:a', 'lt'],
    ['le:a', 'le'],
    ['lte:a', 'le'],
    ['in:a', 'in'],
    ['nin:a', 'nin'],
    ['contains:a', 'contains'],
    ['startswith:a', 'startswith'],
  ])('%s is the operator %s with the argument a', (text, op) => {
    expect(parse(text)).toEqual([{ op, values: ['a'] }]);
  });

  it('matches operator names case-insensitively', () => {
    expect(parse('EQ:x')).toEqual([{ op: 'eq', values: ['x'] }]);
    expect(parse('Neq:x')).toEqual([{ op: 'ne', values: ['x'] }]);
    expect(parse('GTE:x')).toEqual([{ op: 'ge', values: ['x'] }]);
    expect(parse('StartsWith:x')).toEqual([{ op: 'startswith', values: ['x'] }]);
    expect(parse('CONTAINS:x')).toEqual([{ op: 'contains', values: ['x'] }]);
    expect(parse('NIN:x,y')).toEqual([{ op: 'nin', values: ['x', 'y'] }]);
  });

  it('reads a plain value as eq', () => {
    expect(parse('Pizza')).toEqual([{ op: 'eq', values: ['Pizza'] }]);
    expect(parse('')).toEqual([{ op: 'eq', values: [''] }]);
    expect(parse('42', INT)).toEqual([{ op: 'eq', values: [42] }]);
  });

  it('keeps everything after the operator colon as the argument', () => {
    expect(parse('ge:2026-11-21T10:00:00Z', DT, 'OpenDate')).toEqual([{ op: 'ge', values: [Date.parse('2026-11-21T10:00:00Z')] }]);
    expect(parse('eq:a:b:c')).toEqual([{ op: 'eq', values: ['a:b:c'] }]);
    expect(parse('contains::')).toEqual([{ op: 'contains', values: [':'] }]);
  });

  it('reads a value whose head is not an operator as a whole eq value', () => {
    expect(parse('foo:bar')).toEqual([{ op: 'eq', values: ['foo:bar'] }]);
    expect(parse('http://x')).toEqual([{ op: 'eq', values: ['http://x'] }]);
    expect(parse('equals:1')).toEqual([{ op: 'eq', values: ['equals:1'] }]);
    // Quoting is the way to ask for a value that starts like an operation.
    expect(parse('"ge:5"')).toEqual([{ op: 'eq', values: ['ge:5'] }]);
    // A datetime plain value holds colons too.
    expect(parse('2026-11-21T10:00:00Z', DT, 'OpenDate')).toEqual([{ op: 'eq', values: [Date.parse('2026-11-21T10:00:00Z')] }]);
  });

  it('splits operations on ; and ANDs them in order', () => {
    expect(parse('ge:2;lt:5', INT, 'Code')).toEqual([
      { op: 'ge', values: [2] },
      { op: 'lt', values: [5] },
    ]);
    expect(parse('startswith:a;ne:ab;contains:c')).toEqual([
      { op: 'startswith', values: ['a'] },
      { op: 'ne', values: ['ab'] },
      { op: 'contains', values: ['c'] },
    ]);
  });

  it('keeps a ; inside double quotes in the argument', () => {
    expect(parse('in:"a;b",c')).toEqual([{ op: 'in', values: ['a;b', 'c'] }]);
    expect(parse('eq:"x;y"')).toEqual([{ op: 'eq', values: ['x;y'] }]);
  });
});

describe('NData in/nin lists', () => {
  it('splits on commas', () => {
    expect(parse('in:a,b,c')).toEqual([{ op: 'in', values: ['a', 'b', 'c'] }]);
    expect(parse('nin:1,2', INT, 'Code')).toEqual([{ op: 'nin', values: [1, 2] }]);
  });

  it('keeps a comma inside double quotes, CSV style', () => {
    expect(parse('in:"Smith, John",Doe')).toEqual([{ op: 'in', values: ['Smith, John', 'Doe'] }]);
    expect(parse('nin:"a,b","c,d"')).toEqual([{ op: 'nin', values: ['a,b', 'c,d'] }]);
  });

  it('reads "" inside quotes as one double quote', () => {
    expect(parse('in:"say ""hi""",x')).toEqual([{ op: 'in', values: ['say "hi"', 'x'] }]);
    expect(parse('in:""""')).toEqual([{ op: 'in', values: ['"'] }]);
  });

  it('keeps a quote in the middle of an unquoted value literally', () => {
    expect(parse('in:ab"c,d')).toEqual([{ op: 'in', values: ['ab"c', 'd'] }]);
  });

  it('refuses an unclosed quote and an empty list', () => {
    refused(() => parse('in:"abc,d'), 'Name');
    refused(() => parse('in:'), 'Name');
    refused(() => parse('nin:', INT, 'Code'), 'Code');
  });

  it('drops blanks after a closing quote and refuses other text there (a quoted value never silently loses text)', () => {
    expect(parse('in:"a,b" ,c')).toEqual([{ op: 'in', values: ['a,b', 'c'] }]);
    expect(parse('nin: "a,b" , "c"')).toEqual([{ op: 'nin', values: ['a,b', 'c'] }]);
    const err = refused(() => parse('in:"a"b,c'), 'Name');
    expect(err.errors?.[0]?.message).toMatch(/closing double quote/);
  });

  it('parses each list value as the filter type', () => {
    expect(parse('in:cash,VOUCHER', ENUM, 'category')).toEqual([{ op: 'in', values: ['Cash', 'Voucher'] }]);
    expect(parse('in:1.5,2', DEC, 'Rate')).toEqual([{ op: 'in', values: [15000, 20000] }]);
    refused(() => parse('in:1,x', INT, 'Code'), 'Code');
  });
});

describe('NData null', () => {
  it('means a missing value with eq and ne', () => {
    expect(parse('null')).toEqual([{ op: 'eq', values: [null] }]);
    expect(parse('eq:null', DT, 'CloseDate')).toEqual([{ op: 'eq', values: [null] }]);
    expect(parse('ne:null', INT, 'Code')).toEqual([{ op: 'ne', values: [null] }]);
    expect(parse('NEQ:null', BOOL, 'IsActive')).toEqual([{ op: 'ne', values: [null] }]);
  });

  it('is a plain string when quoted', () => {
    expect(parse('eq:"null"')).toEqual([{ op: 'eq', values: ['null'] }]);
    expect(parse('in:"null",x')).toEqual([{ op: 'in', values: ['null', 'x'] }]);
  });

  it.each(['gt:null', 'ge:null', 'lt:null', 'le:null', 'in:null', 'nin:a,null', 'contains:null', 'startswith:null'])(
    'is refused in %s',
    (text) => {
      const err = refused(() => parse(text), 'Name');
      expect(err.errors?.[0]?.message).toMatch(/null/);
    },
  );
});

describe('NData typed arguments', () => {
  it('bool: true or false in any case', () => {
    expect(parse('true', BOOL, 'IsActive')).toEqual([{ op: 'eq', values: [true] }]);
    expect(parse('FALSE', BOOL, 'IsActive')).toEqual([{ op: 'eq', values: [false] }]);
    expect(parse('ne:True', BOOL, 'IsActive')).toEqual([{ op: 'ne', values: [true] }]);
    expect(parse('in:true,false', BOOL, 'IsActive')).toEqual([{ op: 'in', values: [true, false] }]);
    for (const bad of ['yes', '1', '0', '', 'truex']) refused(() => parse(bad, BOOL, 'IsActive'), 'IsActive');
  });

  it('bool: ordering and text operators are refused', () => {
    for (const op of ['gt', 'ge', 'lt', 'le', 'contains', 'startswith']) refused(() => parse(`${op}:true`, BOOL, 'IsActive'), 'IsActive');
  });

  it('int: whole numbers, negative ones too', () => {
    expect(parse('42', INT, 'Code')).toEqual([{ op: 'eq', values: [42] }]);
    expect(parse('gt:-7', INT, 'Code')).toEqual([{ op: 'gt', values: [-7] }]);
    expect(parse('le:0', INT, 'Code')).toEqual([{ op: 'le', values: [0] }]);
    for (const bad of ['1.5', 'abc', '', '1e3', '12345678901234567', '0x10']) refused(() => parse(bad, INT, 'Code'), 'Code');
  });

  it('decimal: scaled by 10^4, at most 4 places', () => {
    expect(parse('12.5', DEC, 'CreditRate')).toEqual([{ op: 'eq', values: [125000] }]);
    expect(parse('ge:0.0001', DEC, 'CreditRate')).toEqual([{ op: 'ge', values: [1] }]);
    expect(parse('lt:-3.25', DEC, 'CreditRate')).toEqual([{ op: 'lt', values: [-32500] }]);
    expect(parse('7', DEC, 'CreditRate')).toEqual([{ op: 'eq', values: [70000] }]);
    expect(parse('1.2345', DEC, 'CreditRate')).toEqual([{ op: 'eq', values: [12345] }]);
    // 0.1 + 0.2 in binary floats is not 0.3; the scaled value is exact.
    expect(parse('0.3', DEC, 'CreditRate')).toEqual([{ op: 'eq', values: [3000] }]);
    for (const bad of ['1.23456', 'abc', '', '1,5', '1e2', '.5']) refused(() => parse(bad, DEC, 'CreditRate'), 'CreditRate');
  });

  it('datetime: with Z, with an offset, and without one in the store zone', () => {
    const at = Date.parse('2026-11-21T10:00:00Z');
    expect(parse('2026-11-21T10:00:00Z', DT, 'OpenDate')[0].values).toEqual([at]);
    expect(parse('2026-11-21T12:00:00+02:00', DT, 'OpenDate')[0].values).toEqual([at]);
    expect(parse('2026-11-21T05:00:00-05:00', DT, 'OpenDate')[0].values).toEqual([at]);
    // Bratislava is UTC+1 in November and UTC+2 in July.
    expect(parse('2026-11-21T11:00:00', DT, 'OpenDate')[0].values).toEqual([at]);
    expect(parse('2026-07-01T12:00:00', DT, 'OpenDate')[0].values).toEqual([Date.parse('2026-07-01T10:00:00Z')]);
    expect(parse('2026-11-21', DT, 'OpenDate')[0].values).toEqual([Date.parse('2026-11-20T23:00:00Z')]);
    expect(parse('2026-11-21T10:00:00.250Z', DT, 'OpenDate')[0].values).toEqual([at + 250]);
  });

  it('datetime: a different store zone changes the reading of a local time', () => {
    expect(parseFilter('OpenDate', '2026-11-21T11:00:00', DT, 'UTC')[0].values).toEqual([Date.parse('2026-11-21T11:00:00Z')]);
  });

  it('datetime: bad values are refused', () => {
    for (const bad of ['yesterday', '2026-02-31T10:00:00Z', '2026-11-21T25:00:00Z', '21.11.2026', '']) {
      refused(() => parse(`ge:${bad}`, DT, 'OpenDate'), 'OpenDate');
    }
  });

  it('enum: matched case-insensitively, answered in its own spelling', () => {
    expect(parse('creditcard', ENUM, 'category')).toEqual([{ op: 'eq', values: ['CreditCard'] }]);
    expect(parse('ne:CASH', ENUM, 'category')).toEqual([{ op: 'ne', values: ['Cash'] }]);
    const err = refused(() => parse('Bitcoin', ENUM, 'category'), 'category');
    expect(err.errors?.[0]?.message).toContain('Cash');
    refused(() => parse('contains:Ca', ENUM, 'category'), 'category');
  });

  it('text operators apply only to text filters', () => {
    refused(() => parse('contains:1', INT, 'Code'), 'Code');
    refused(() => parse('startswith:1', DEC, 'Rate'), 'Rate');
    refused(() => parse('contains:2026', DT, 'OpenDate'), 'OpenDate');
  });

  it('takes a single argument that is no whole quoted string as written (CONTRACT §11: the rest is its argument)', () => {
    expect(parse('contains:"')).toEqual([{ op: 'contains', values: ['"'] }]);
    expect(parse('"abc')).toEqual([{ op: 'eq', values: ['"abc'] }]);
    expect(parse('"U Jána" s.r.o.')).toEqual([{ op: 'eq', values: ['"U Jána" s.r.o.'] }]);
    expect(parse('startswith:"U Jána" ')).toEqual([{ op: 'startswith', values: ['U Jána'] }]);
  });

  it('string: kept as given, spaces and quotes included', () => {
    expect(parse("eq:' OR 1=1 --")).toEqual([{ op: 'eq', values: ["' OR 1=1 --"] }]);
    expect(parse('contains: a ')).toEqual([{ op: 'contains', values: [' a '] }]);
    expect(parse('contains:50%_off')).toEqual([{ op: 'contains', values: ['50%_off'] }]);
  });

  it('names the filter of a bad value in the error', () => {
    const err = refused(() => parse('ge:x', INT, 'CloseInfoNumber'), 'CloseInfoNumber');
    expect(err.errors?.[0]?.code).toBe('Invalid');
    expect(err.message).toContain('CloseInfoNumber');
  });
});

describe('NData string lists', () => {
  it('reads a plain value as in', () => {
    expect(parse('POS1,POS2', LIST, 'DeviceName')).toEqual([{ op: 'in', values: ['POS1', 'POS2'] }]);
    expect(parse('POS1', LIST, 'DeviceName')).toEqual([{ op: 'in', values: ['POS1'] }]);
    expect(parse('"Bar, upstairs",POS2', LIST, 'DeviceName')).toEqual([{ op: 'in', values: ['Bar, upstairs', 'POS2'] }]);
  });

  it('reads a plain null as the missing value (eq), as every other filter does', () => {
    expect(parse('null', LIST, 'DeviceName')).toEqual([{ op: 'eq', values: [null] }]);
    expect(parse('"null",x', LIST, 'DeviceName')).toEqual([{ op: 'in', values: ['null', 'x'] }]);
  });

  it('still takes explicit operators', () => {
    expect(parse('nin:POS1,POS2', LIST, 'DeviceName')).toEqual([{ op: 'nin', values: ['POS1', 'POS2'] }]);
    expect(parse('eq:POS1', LIST, 'DeviceName')).toEqual([{ op: 'eq', values: ['POS1'] }]);
    expect(parse('contains:POS', LIST, 'DeviceName')).toEqual([{ op: 'contains', values: ['POS'] }]);
  });
});

describe('CSV splitting', () => {
  it('marks quoted parts', () => {
    expect(splitQuoted('a,"b,c",', ',')).toEqual({ parts: ['a', 'b,c', ''], quoted: [false, true, false] });
  });
});

describe('$sort parsing', () => {
  it('reads -key, key:desc, key:asc, several keys and repeated values', () => {
    expect(parseSort(['-a,b:desc,c:ASC', 'd'])).toEqual([
      { key: 'a', desc: true },
      { key: 'b', desc: true },
      { key: 'c', desc: false },
      { key: 'd', desc: false },
    ]);
    expect(parseSort(['credit.amount:desc'])).toEqual([{ key: 'credit.amount', desc: true }]);
  });

  it('refuses an empty key and a bad direction with memberName $sort', () => {
    refused(() => parseSort(['a,,b']), '$sort');
    refused(() => parseSort(['a:down']), '$sort');
    refused(() => parseSort(['']), '$sort');
  });
});
