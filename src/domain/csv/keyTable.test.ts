import { describe, expect, it } from 'vitest';
import { KeyTable } from './keyTable';

describe('the key table', () => {
  it('gives the first line of a key met again, across pages and growth', () => {
    const table = new KeyTable();
    for (let index = 0; index < 20_000; index += 1) expect(table.add(`key_${index}`, index + 2)).toBe(-1);
    expect(table.size).toBe(20_000);
    expect(table.add('key_0', 50_000)).toBe(2);
    expect(table.add('key_4095', 50_001)).toBe(4097);
    expect(table.add('key_19999', 50_002)).toBe(20_001);
    expect(table.add('key_2', 50_003)).toBe(4);
    expect(table.add('key_20000', 50_004)).toBe(-1);
    expect(table.add('', 50_005)).toBe(-1);
    expect(table.add('', 50_006)).toBe(50_005);
  });

  it('tells apart keys whose texts run into each other in a page', () => {
    const table = new KeyTable();
    expect(table.add('ab', 1)).toBe(-1);
    expect(table.add('c', 2)).toBe(-1);
    expect(table.add('abc', 3)).toBe(-1);
    expect(table.add('bc', 4)).toBe(-1);
    expect(table.add('abc', 5)).toBe(3);
  });
});
