import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../tests/seededRandom';
import { readInOnePass as readCommon, readWithYamlPackage as readFull } from '../../../tests/yamlReaders';

const FIXTURES = path.resolve(import.meta.dirname, '../../../tests/fixtures/configurations');

/** Every case the one-pass reader must read itself, and read as the `yaml` package does. */
const COMMON = {
  'block maps and lists':
    'a: 1\nb:\n  c: x\n  d:\n    - 1\n    - two\n    -\n    - e: 3\n      f: 4\ng:\n- same indent\n- list\nh: last\n',
  'empty values': 'a:\nb:   \nc: # comment\nd:\n  - \n  -   # comment\ne: ~\nf: null\n',
  'core schema scalars':
    'i: 12\nj: -3\nk: +4\nl: 0o17\nm: 0x1F\nn: 1.50\no: .5\np: 1e3\nq: 2.5E-2\nr: .inf\ns: -.Inf\nt: .nan\nu: true\nv: False\nw: yes\nx: 2.0.1\ny: 1.\nz: 007\n',
  'keys as written':
    '1.0: a\ntrue: b\nnull: c\n"quoted key": d\n\'single\': e\nspaced key  : f\n-dash: g\n:colon: h\nwith:colon: i\n',
  'quoted scalars':
    'a: "double \\"escaped\\" \\t \\n \\\\ \\u00e9 \\x41 \\U0001F600"\nb: \'it\'\'s\'\nc: "a #not comment"\nd: \'\'\ne: ""   # comment\n',
  'multi-line quoted': 'a: "first\n  second\n\n  third  "\nb: \'one\n    two\'\n',
  'multi-line plain': 'a: first\n  second\n\n  third\nb:\n  - item\n    continued\nc: x#y\nd: a: b\n'.replace(
    'd: a: b\n',
    'd: url http://x\n',
  ),
  'flow collections':
    'a: [1, two, "three", \'four\', {k: v, "q": [x]}]\nb: {x: 1, y: [], z: {}}\nc: [\n  one,\n  two # comment\n  ]\nd: {"json":1, "other": null}\n',
  'block scalars':
    'a: |\n  line one\n    indented\n\n  line three\nb: >\n  folded\n  text\n\n  paragraph\nc: |-\n  stripped\n\n\nd: |+\n  kept\n\n\ne: >-\n  x\n  y\nf: |\ng: |\n\n  after blank\nh:\n  - |\n    in a list\n  - >\n    folded item\n',
  'folded more indented lines':
    'a: >\n  text\n    code(1)\n      deeper\n\n    again\n  back\n  here\n\n\n  end\nb: >\n\n  normal\n    spaced\n\n  normal\n',
  'comments everywhere':
    '# head\n\na: 1 # trailing\n# between\n  # indented comment\nb:\n  # inside\n  c: 2\n\n# tail\n',
  'CRLF line ends': 'a: 1\r\nb:\r\n  - x\r\n  - "y\r\n    z"\r\nc: |\r\n  text\r\n  more\r\n',
  'a list at the root': '- a\n- b: 1\n  c: 2\n- - nested\n  - list\n',
  'nothing but comments': '# only\n\n',
  'a scalar at the root': 'just text\n',
  unicode: 'clé: "été"\n日本: 語\nemoji: 😀 text\n',
};

/** What the one-pass reader leaves to the `yaml` package (which must then decide). */
const LEFT_TO_THE_FULL_PARSER = {
  'anchors and aliases': 'a: &x 1\nb: *x\n',
  tags: 'a: !!str 1\n',
  'several documents': 'a: 1\n---\nb: 2\n',
  tabs: 'a:\n\tb: 1\n',
  'complex keys': '? a\n: b\n',
  'duplicate keys': 'a: 1\na: 2\n',
  'keys equal as values': '1: a\n01: b\n',
  'nested compact map': 'a: b: c\n',
  'comment without a space': 'a: "x"#c\n',
  'unclosed quote': 'a: "abc\nb: 1\n',
  'unclosed flow': 'a: [1, 2\n',
  'bad indentation': 'a:\n    b: 1\n  c: 2\n',
  'trailing comma': 'a: [1, 2,]\n',
  'single pair in a flow list': 'a: [k: v]\n',
};

describe('reading common YAML in one pass', () => {
  for (const [name, text] of Object.entries(COMMON)) {
    it(`reads ${name} itself, as the yaml package does`, () => {
      const common = readCommon(text);
      expect(common).toBeDefined();
      expect(common).toEqual(readFull(text));
    });
  }

  for (const [name, text] of Object.entries(LEFT_TO_THE_FULL_PARSER)) {
    it(`leaves ${name} to the yaml package`, () => {
      expect(readCommon(text)).toBeUndefined();
    });
  }

  it('reads every configuration fixture itself, as the yaml package does', () => {
    for (const file of readdirSync(FIXTURES).filter((name) => name.endsWith('.yaml'))) {
      const text = readFileSync(path.join(FIXTURES, file), 'utf8');
      const common = readCommon(text);
      expect(common, file).toBeDefined();
      expect(common, file).toEqual(readFull(text));
    }
  });

  it(
    'never reads a mutated fixture differently from the yaml package, over 10,000 mutations',
    { timeout: 60_000 },
    () => {
      const bases = [
        ...Object.values(COMMON),
        ...readdirSync(FIXTURES)
          .filter((name) => name.endsWith('.yaml'))
          .map((file) => readFileSync(path.join(FIXTURES, file), 'utf8')),
      ];
      const pieces = [
        ' ',
        '  ',
        '\n',
        '\r\n',
        ':',
        ': ',
        '- ',
        '-',
        '#',
        ' #',
        '"',
        "'",
        '[',
        ']',
        '{',
        '}',
        ',',
        '|',
        '>',
        '|-',
        '>+',
        '\\',
        'x',
        '1',
        '.5',
        '~',
        '?',
        '&a',
        '*a',
        '!',
        '\t',
        '---\n',
        'é',
      ];
      const next = seededRandom(Number(process.env.FUZZ_SEED ?? 0x59a1));
      let readInOnePass = 0;
      for (let run = 0; run < 10_000; run += 1) {
        let text = bases[Math.floor(next() * bases.length)];
        if (text.length > 2_000) {
          const from = text.indexOf('\n', Math.floor(next() * (text.length - 2_000))) + 1;
          text = text.slice(from, text.indexOf('\n', from + 1_500) + 1);
        }
        for (let edit = 1 + Math.floor(next() * 3); edit > 0; edit -= 1) {
          const at = Math.floor(next() * (text.length + 1));
          const choice = next();
          if (choice < 0.45) text = text.slice(0, at) + pieces[Math.floor(next() * pieces.length)] + text.slice(at);
          else if (choice < 0.9) text = text.slice(0, at) + text.slice(at + 1 + Math.floor(next() * 3));
          else {
            const lineStart = text.lastIndexOf('\n', at - 1) + 1;
            const lineEnd = text.indexOf('\n', at);
            const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd + 1);
            text = text.slice(0, lineStart) + line + text.slice(lineStart);
          }
        }
        const common = readCommon(text);
        if (common === undefined) continue;
        readInOnePass += 1;
        expect(common, `case ${run}: ${JSON.stringify(text)}`).toEqual(readFull(text));
      }
      expect(readInOnePass).toBeGreaterThan(1_000);
    },
  );
});
