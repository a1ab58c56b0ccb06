import { describe, expect, it } from 'vitest';
import { toCsv } from './csv.js';
import { asciiJson } from './format.js';

describe('toCsv', () => {
  it('quotes what needs quoting and writes numbers and nulls plainly', () => {
    expect(toCsv(['a', 'b', 'c'], [{ a: 'x,y', b: 1.5, c: null }, { a: 'say "hi"\nthere', b: 0, c: 'ok' }])).toBe(
      'a,b,c\r\n"x,y",1.5,\r\n"say ""hi""\nthere",0,ok\r\n',
    );
  });
  it('keeps spreadsheet formulas as text', () => {
    expect(toCsv(['n'], [{ n: '=HYPERLINK("http://evil")' }, { n: '+1' }, { n: '-2' }, { n: '@SUM(A1)' }, { n: 'r1.example' }])).toBe(
      `n\r\n"'=HYPERLINK(""http://evil"")"\r\n'+1\r\n'-2\r\n'@SUM(A1)\r\nr1.example\r\n`,
    );
  });
});

describe('asciiJson', () => {
  it('writes printable ASCII without quote characters, and parses back exactly', () => {
    const value = { t: `it's "quoted" \\ ünïcødé 😀 \u0001 '); DROP TABLE x; --`, n: [1.5, -4194305] };
    const text = asciiJson(value);
    expect(text).toMatch(/^[\x20-\x26\x28-\x7e]*$/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
