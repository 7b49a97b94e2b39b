import { describe, expect, it } from 'vitest';
import { csvRecordCounter } from './recordCounter';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('counting the records of a CSV as it arrives', () => {
  it('ends a record at a line feed outside quotes, across chunks cut anywhere', () => {
    const text = 'a;b\r\n"x\ny";"é""\n"\r\nz;"w"\n';
    for (let cut = 0; cut <= text.length; cut++) {
      const counter = csvRecordCounter();
      const whole = bytes(text);
      const at = bytes(text.slice(0, cut)).length;
      counter.add(whole.subarray(0, at));
      counter.add(whole.subarray(at));
      expect(counter.records).toBe(3);
    }
  });

  it('ends a record at a lone CR or a CRLF as at a LF, a CRLF cut between chunks counted once', () => {
    const text = 'a;b\rc;"x\ry\r\nz"\r\n\rd;e\nf\r';
    for (let size = 1; size <= text.length; size++) {
      const counter = csvRecordCounter();
      for (let start = 0; start < text.length; start += size) counter.add(bytes(text.slice(start, start + size)));
      expect(counter.records, `chunks of ${size}`).toBe(5);
    }
  });

  it('counts thousands of records', () => {
    const counter = csvRecordCounter();
    const rows = Array.from({ length: 5_000 }, (_, i) => `k${i};"line\n${i}";é\n`).join('');
    counter.add(bytes(`key;note;other\n${rows}`));
    expect(counter.records).toBe(5_001);
  });
});
