/**
 * The harness holds every answer against the document (test/support/answers.ts). These make sure it
 * can fail: a field the document lacks, a status it does not list, a wrong type, a missing field.
 */
import { describe, expect, it } from 'vitest';
import { checkAnswer } from '../support/answers.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const stock = { name: 'Bar', description: '', _v: 1 };

describe('every answer is checked against the document', () => {
  it('passes an answer as documented', () => {
    expect(() => checkAnswer('GET', '/api/stocks/Bar', 200, JSON_TYPE, stock)).not.toThrow();
    expect(() => checkAnswer('GET', '/api/stocks?$take=1', 200, JSON_TYPE, { items: [stock], count: 1, totalCount: 1 })).not.toThrow();
  });

  it('fails a field the document leaves out, at any depth', () => {
    expect(() => checkAnswer('GET', '/api/stocks/Bar', 200, JSON_TYPE, { ...stock, secret: 1 })).toThrow(/secret/);
    expect(() => checkAnswer('GET', '/api/stocks', 200, JSON_TYPE, { items: [{ ...stock, secret: 1 }], count: 1, totalCount: 1 })).toThrow(/secret/);
  });

  it('fails a missing required field and a wrong type', () => {
    expect(() => checkAnswer('GET', '/api/stocks/Bar', 200, JSON_TYPE, { name: 'Bar', description: '' })).toThrow(/_v/);
    expect(() => checkAnswer('GET', '/api/stocks/Bar', 200, JSON_TYPE, { ...stock, _v: 'one' })).toThrow(/_v/);
  });

  it('fails a status the operation does not document, and an errorCode its status does not list', () => {
    expect(() => checkAnswer('GET', '/api/stocks/Bar', 418, JSON_TYPE, {})).toThrow(/does not document/);
    const problem = { type: 'https://poshub.local/problems/404-7', title: 'Not Found', status: 404, detail: 'x', instance: '/api/stocks/x', traceId: 't', errorCode: 99 };
    expect(() => checkAnswer('GET', '/api/stocks/x', 404, 'application/problem+json', problem)).toThrow(/errorCode/);
    expect(() => checkAnswer('GET', '/api/stocks/x', 404, 'application/problem+json', { ...problem, errorCode: 7 })).not.toThrow();
  });
});
