import { describe, expect, it } from 'vitest';
import { utf8Length } from './utf8Length';

describe('utf8Length', () => {
  it('counts what an encoder writes, for every width of character and a lone surrogate', () => {
    for (const text of ['', 'abc', 'été', '€uro', '𝄞 clef', 'é\u{10FFFF}', '\uD800x', 'x\uDC00', '\uD800']) {
      expect(utf8Length(text), JSON.stringify(text)).toBe(new TextEncoder().encode(text).length);
    }
  });
});
