import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, prettyLine } from '../../hub/core/log.js';

describe('log lines', () => {
  it('on a terminal are one readable line each: time, level, message, fields; the error by its message', () => {
    const time = new Date(2026, 10, 24, 7, 5, 9).getTime();
    const line = prettyLine(JSON.stringify({ level: 40, time, msg: 'printer offline', endpoint: 'Kuchyňa', jobs: 3, err: { type: 'Error', message: 'ECONNREFUSED', stack: 'Error: …' } }));
    expect(line).toBe('07:05:09 WARN  printer offline  endpoint="Kuchyňa" jobs=3 err="ECONNREFUSED"\n');
    expect(prettyLine('not json')).toBe('not json\n');
  });

  function sink(): { stream: Writable; written: string[] } {
    const written: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        written.push(chunk.toString());
        done();
      },
    });
    return { stream, written };
  }

  it('off a terminal stay JSON; on one they are readable; the redaction holds either way', () => {
    const json = sink();
    createLogger('info', json.stream, false).info({ password: 'secret', user: 'anna' }, 'login');
    expect(JSON.parse(json.written[0])).toMatchObject({ level: 30, msg: 'login', user: 'anna', password: '[Redacted]' });
    const terminal = sink();
    createLogger('info', terminal.stream, true).info({ password: 'secret', user: 'anna' }, 'login');
    expect(terminal.written[0]).toMatch(/^\d\d:\d\d:\d\d INFO {2}login {2}password="\[Redacted\]" user="anna"\n$/);
  });
});
