/**
 * Text as Bulgarian Datecs firmware reads it: Windows-1251 (P manual p.1 "DOS or 1251 codepage",
 * switch 5 off = 1251, p.3; C manual p.1). ASCII passes through, Cyrillic and the 1251 punctuation
 * map to their byte, Latin letters with diacritics lose the mark ("Šopský" → "Sopsky"), anything
 * else becomes '?'. Pure.
 */

/** Code points of bytes 80h..BFh (C0h..FFh are А..я, U+0410..U+044F, in order). 98h is unused. */
const HIGH = [
  0x0402, 0x0403, 0x201a, 0x0453, 0x201e, 0x2026, 0x2020, 0x2021, 0x20ac, 0x2030, 0x0409, 0x2039, 0x040a, 0x040c, 0x040b, 0x040f,
  0x0452, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0xfffd, 0x2122, 0x0459, 0x203a, 0x045a, 0x045c, 0x045b, 0x045f,
  0x00a0, 0x040e, 0x045e, 0x0408, 0x00a4, 0x0490, 0x00a6, 0x00a7, 0x0401, 0x00a9, 0x0404, 0x00ab, 0x00ac, 0x00ad, 0x00ae, 0x0407,
  0x00b0, 0x00b1, 0x0406, 0x0456, 0x0491, 0x00b5, 0x00b6, 0x00b7, 0x0451, 0x2116, 0x0454, 0x00bb, 0x0458, 0x0405, 0x0455, 0x0457,
];

const TO_BYTE = new Map<number, number>(HIGH.map((cp, i) => [cp, 0x80 + i]));
for (let i = 0; i < 64; i++) TO_BYTE.set(0x0410 + i, 0xc0 + i);
TO_BYTE.delete(0xfffd);

/** One byte for one character of `text`. TAB and LF pass (field separators); other control characters become spaces: they are framing bytes. */
export function encode1251(text: string): Buffer {
  const out: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0x09 || cp === 0x0a) out.push(cp);
    else if (cp < 0x20 || cp === 0x7f) out.push(0x20);
    else if (cp < 0x80) out.push(cp);
    else {
      const b = TO_BYTE.get(cp);
      if (b !== undefined) out.push(b);
      else {
        const plain = ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
        out.push(plain.length === 1 && plain.charCodeAt(0) < 0x80 ? plain.charCodeAt(0) : 0x3f);
      }
    }
  }
  return Buffer.from(out);
}

export function decode1251(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCodePoint(b < 0x80 ? b : b >= 0xc0 ? 0x0410 + b - 0xc0 : HIGH[b - 0x80]);
  return s;
}

/** `text` as the text of one field: no control characters (TAB and LF separate fields), cut to `max` bytes. */
export function deviceText(text: string, max: number): string {
  return decode1251(encode1251(text.replace(/[\u0000-\u001f\u007f]/g, ' ')).subarray(0, max));
}
