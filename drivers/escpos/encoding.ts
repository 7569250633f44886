/**
 * Text to printer bytes. ESC/POS printers know no Unicode: each code page maps bytes 0x80-0xFF to
 * 128 characters. The Central-European page is PC852 (DOS Latin 2); a printer without it gets
 * ASCII with the diacritics taken off ("Šopský šalát" → "Sopsky salat"), never bytes it would
 * print as the wrong letters.
 */

export type TextEncoding = 'cp852' | 'ascii';

/**
 * Bytes 0x80-0xFF of code page 852 in order, checked against the published table (Wikipedia
 * "Code page 852", the IBM/Microsoft mapping). 0xFF is NO-BREAK SPACE, 0xF0 SOFT HYPHEN.
 */
const CP852_HIGH =
  'ÇüéâäůćçłëŐőîŹÄĆ' + // 0x80
  'ÉĹĺôöĽľŚśÖÜŤťŁ×č' + // 0x90
  'áíóúĄąŽžĘę¬źČş«»' + // 0xA0
  '░▒▓│┤ÁÂĚŞ╣║╗╝Żż┐' + // 0xB0
  '└┴┬├─┼Ăă╚╔╩╦╠═╬¤' + // 0xC0
  'đĐĎËďŇÍÎě┘┌█▄ŢŮ▀' + // 0xD0
  'ÓßÔŃńňŠšŔÚŕŰýÝţ´' + // 0xE0
  '\u00ad˝˛ˇ˘§÷¸°¨˙űŘř■\u00a0'; // 0xF0

const CP852 = new Map<string, number>([...CP852_HIGH].map((ch, i) => [ch, 0x80 + i]));

/** Letters that Unicode decomposition does not strip to ASCII. */
const ASCII_FALLBACK: Record<string, string> = {
  'ł': 'l', 'Ł': 'L', 'đ': 'd', 'Đ': 'D', 'ß': 'ss', 'ø': 'o', 'Ø': 'O', 'æ': 'ae', 'Æ': 'AE', 'œ': 'oe', 'Œ': 'OE',
  'ı': 'i', 'ħ': 'h', 'Ħ': 'H', '€': 'EUR', '–': '-', '—': '-', '‘': "'", '’': "'", '‚': ',', '“': '"', '”': '"', '„': '"',
  '…': '...', '×': 'x', '÷': '/', '«': '<<', '»': '>>', '\u00a0': ' ', '\u00ad': '-', '°': 'o', '•': '*',
};

/** One character as plain ASCII: decomposed with its marks removed, a known substitute, or '?'. */
export function toAscii(ch: string): string {
  const code = ch.codePointAt(0) ?? 0x3f;
  if (code >= 0x20 && code < 0x7f) return ch;
  const known = ASCII_FALLBACK[ch];
  if (known !== undefined) return known;
  const stripped = ch.normalize('NFD').replace(/\p{M}/gu, '');
  return /^[\x20-\x7e]+$/.test(stripped) ? stripped : '?';
}

/**
 * `text` as the characters the printer will show, one character per print cell: letters of the
 * code page stay, everything else becomes its ASCII stand-in. Layouts measure and wrap this string,
 * so a fallback that widens a character (€ → EUR) cannot push a line past the paper's edge.
 */
export function printable(text: string, encoding: TextEncoding): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0) ?? 0x3f;
    if (code < 0x20 || code === 0x7f) out += ' ';
    else if (code < 0x80 || (encoding === 'cp852' && CP852.has(ch))) out += ch;
    else out += toAscii(ch);
  }
  return out;
}

/**
 * Encodes `text` for a printer whose active code page is `encoding`. Control characters never reach
 * the printer as text (they would be read as commands): they become spaces.
 */
export function encodeText(text: string, encoding: TextEncoding): number[] {
  return [...printable(text, encoding)].map((ch) => CP852.get(ch) ?? ch.charCodeAt(0));
}

/** Decodes printer bytes back to text (the fake printer and tests read what a printer would print). */
export function decodeText(bytes: ArrayLike<number>, encoding: TextEncoding): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    s += b < 0x80 ? String.fromCharCode(b) : encoding === 'cp852' ? CP852_HIGH[b - 0x80] : '?';
  }
  return s;
}
