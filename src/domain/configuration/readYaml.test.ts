import { describe, expect, it } from 'vitest';
import { readConfigurationDocument } from './readConfiguration';
import { YAML_LIMITS } from './readYaml';

const encode = (text: string) => new TextEncoder().encode(text);
const read = (text: string | Uint8Array) =>
  readConfigurationDocument(typeof text === 'string' ? encode(text) : text, 'test.yaml');

function errorsOf(text: string | Uint8Array) {
  const reading = read(text);
  if (reading.ok) throw new Error('expected the reading to fail');
  return reading.errors;
}

describe('reading YAML', () => {
  it('reads keys as the text the author wrote (YAML 1.2 core schema, no YAML 1.1 booleans)', () => {
    const reading = read('no: 1\nyes: on\n1.0: x\nversion: 2.0.1\nfloat: 1.10\n');
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    expect(reading.root.entries.map((entry) => entry.key)).toEqual(['no', 'yes', '1.0', 'version', 'float']);
    const value = (key: string) => reading.root.byKey.get(key)!.value;
    expect(value('yes')).toMatchObject({ type: 'string', text: 'on' });
    expect(value('version')).toMatchObject({ type: 'string', text: '2.0.1' });
    expect(value('float')).toMatchObject({ type: 'float', text: '1.10' });
    expect(value('no')).toMatchObject({ type: 'integer', value: 1 });
  });

  it('accepts CRLF line endings and a UTF-8 byte-order mark', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...encode('a: é\r\nb:\r\n  c: 1\r\n')]);
    const reading = read(bom);
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    expect(reading.root.entries.map((entry) => entry.key)).toEqual(['a', 'b']);
    expect(reading.root.byKey.get('a')!.value).toMatchObject({ text: 'é' });
  });

  it('refuses duplicated keys with their position', () => {
    const [error] = errorsOf('a: 1\nb:\n  c: 1\n  c: 2\n');
    expect(error).toMatchObject({ code: 'DUPLICATE_KEY', path: '', line: 4, column: 3 });
  });

  it('groups parse failures into the original low-level codes, with line and column', () => {
    expect(errorsOf('a: "abc\nb: 1\n')[0]).toMatchObject({ code: 'UNTERMINATED_STRING' });
    expect(errorsOf("a: 'abc\n")[0]).toMatchObject({ code: 'UNTERMINATED_STRING' });
    expect(errorsOf('a: [1, 2\n')[0]).toMatchObject({ code: 'UNEXPECTED_EOF', line: 2, column: 1 });
    expect(errorsOf('a: @value\n')[0]).toMatchObject({ code: 'UNEXPECTED_CHARACTER', line: 1, column: 4 });
    expect(errorsOf('a:\n\tb: 1\n')[0]).toMatchObject({ code: 'UNEXPECTED_CHARACTER', line: 2 });
    expect(errorsOf('a: "x"#comment\n')[0]).toMatchObject({ code: 'MALFORMED_COMMENT', line: 1, column: 7 });
    expect(errorsOf('a: !!int abc\n')[0]).toMatchObject({ code: 'MALFORMED_NUMBER' });
    expect(errorsOf('a: b: c\n')[0]).toMatchObject({ code: 'INVALID_TOKEN', line: 1 });
    expect(errorsOf('a: 1\n---\nb: 2\n')[0]).toMatchObject({ code: 'INVALID_TOKEN', line: 2 });
    expect(errorsOf('a: *missing\n')[0]).toMatchObject({
      code: 'INVALID_TOKEN',
      params: { kind: 'BAD_ALIAS', alias: 'missing' },
    });
  });

  it("gives the parser's kind of error as a param, never its English sentence", () => {
    const samples = [
      'a: "abc\n',
      'a: [1, 2\n',
      'a: @value\n',
      'a:\n\tb: 1\n',
      'a: b: c\n',
      'a: 1\n---\nb: 2\n',
      'a: !!int abc\n',
    ];
    for (const sample of samples) {
      const [error] = errorsOf(sample);
      expect(error.params, sample).not.toHaveProperty('message');
      expect(error.params.kind, sample).toMatch(/^[A-Z_0-9]+$/);
      expect(error, sample).toMatchObject({ line: expect.any(Number), column: expect.any(Number) });
    }
    expect(errorsOf('a:\n\tb: 1\n')[0].params).toEqual({ kind: 'TAB_AS_INDENT' });
    expect(errorsOf('a: 1\n---\nb: 2\n')[0].params).toEqual({ kind: 'MULTIPLE_DOCS' });
    expect(errorsOf('a: !!int abc\n')[0].params).toEqual({ kind: 'TAG_RESOLVE_FAILED', tag: 'int' });
  });

  it('calls an upload without content empty, and refuses a document that is not a map', () => {
    expect(errorsOf('')).toEqual([{ code: 'EMPTY_FILE', path: '', params: {} }]);
    expect(errorsOf('# only a comment\n')[0].code).toBe('EMPTY_FILE');
    expect(errorsOf('just a sentence')[0]).toMatchObject({
      code: 'INVALID_CONFIGURATION_FILE',
      params: { reason: 'rootNotMap' },
    });
    expect(errorsOf('- a\n- b\n')[0]).toMatchObject({
      code: 'INVALID_CONFIGURATION_FILE',
      params: { reason: 'rootNotMap' },
    });
  });

  it('refuses bytes that are not UTF-8, pointing at the first bad one', () => {
    const latin1 = new Uint8Array([...encode('a: ok\nb: caf'), 0xe9, ...encode('\n')]);
    expect(errorsOf(latin1)[0]).toMatchObject({
      code: 'INVALID_CONFIGURATION_FILE',
      params: { reason: 'notUtf8', byteOffset: 12 },
      line: 2,
      column: 7,
    });
  });

  it('expands aliases but stops an alias bomb', () => {
    const reading = read('base: &b {x: 1}\ncopy: *b\n');
    expect(reading.ok && reading.root.byKey.get('copy')!.value.kind).toBe('map');

    const levels = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let level = 1; level < 9; level += 1)
      levels.push(
        `a${level}: &a${level} [${Array(10)
          .fill(`*a${level - 1}`)
          .join(', ')}]`,
      );
    const [error] = errorsOf(levels.join('\n') + '\n');
    expect(error.code).toBe('INVALID_CONFIGURATION_FILE');
    expect(['tooManyNodes', 'tooManyAliases']).toContain(error.params.reason);
  });

  it('refuses absurdly deep or large documents', () => {
    const deep = `a: ${'['.repeat(YAML_LIMITS.maxDepth + 5)}${']'.repeat(YAML_LIMITS.maxDepth + 5)}\n`;
    expect(errorsOf(deep)[0]).toMatchObject({ code: 'INVALID_CONFIGURATION_FILE', params: { reason: 'tooDeep' } });
    // Deep enough that the parser runs out of stack before the limit is counted: said as the same limit.
    for (const deeper of [
      `a: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`,
      `a: ${'{b: '.repeat(10_000)}1${'}'.repeat(10_000)}\n`,
    ])
      expect(errorsOf(deeper)[0]).toMatchObject({
        code: 'INVALID_CONFIGURATION_FILE',
        params: { reason: 'tooDeep', maxDepth: YAML_LIMITS.maxDepth },
      });
    const large = `a: "${'x'.repeat(YAML_LIMITS.maxBytes)}"\n`;
    expect(errorsOf(large)[0]).toMatchObject({ code: 'INVALID_CONFIGURATION_FILE', params: { reason: 'tooLarge' } });
  });

  it('counts the size limit in bytes of UTF-8, not in characters', () => {
    // `a: "` and `"\n` take 6 bytes; each é takes 2.
    const accents = (count: number) => `a: "${'é'.repeat(count)}"\n`;
    const atLimit = accents((YAML_LIMITS.maxBytes - 6) / 2);
    expect(encode(atLimit).length).toBe(YAML_LIMITS.maxBytes);
    expect(read(atLimit).ok).toBe(true);
    const over = accents((YAML_LIMITS.maxBytes - 6) / 2 + 1);
    expect(over.length).toBeLessThan(YAML_LIMITS.maxBytes);
    expect(errorsOf(over)[0]).toMatchObject({
      code: 'INVALID_CONFIGURATION_FILE',
      params: { reason: 'tooLarge', maxBytes: YAML_LIMITS.maxBytes },
    });
    // Four bytes a character: a quarter of the limit in characters is already too much.
    const clefs = `a: "${'𝄞'.repeat(YAML_LIMITS.maxBytes / 4)}"\n`;
    expect(errorsOf(clefs)[0]).toMatchObject({ params: { reason: 'tooLarge' } });
  });
});
