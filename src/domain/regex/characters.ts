/**
 * Sets of characters as Java's `java.util.regex` defines them: the predefined classes (`\d`, `\w`, `\s`, `\h`,
 * `\v`), POSIX and `java…` classes, Unicode categories, scripts and binary properties, and case-insensitive
 * comparison. A set is a test on one code point; the engines cache what it answers, so a test may be slow.
 */

/** Whether a code point belongs to a set. */
export type CharTest = (codePoint: number) => boolean;

export const anyCharacter: CharTest = () => true;

export const union =
  (tests: readonly CharTest[]): CharTest =>
  (c) => {
    for (const test of tests) if (test(c)) return true;
    return false;
  };

export const intersection =
  (tests: readonly CharTest[]): CharTest =>
  (c) => {
    for (const test of tests) if (!test(c)) return false;
    return true;
  };

export const complement =
  (test: CharTest): CharTest =>
  (c) =>
    !test(c);

export const range =
  (low: number, high: number): CharTest =>
  (c) =>
    c >= low && c <= high;

/** Java's line terminators (for `.`, `^` and `$`): `\n`, `\r`, U+0085, U+2028, U+2029; only `\n` with UNIX_LINES. */
export const isLineTerminator = (c: number): boolean =>
  c === 10 || c === 13 || c === 0x85 || c === 0x2028 || c === 0x2029;

/**
 * A set written as the body of a JavaScript `u` class (`\p{Ll}`, `a-z`, `\u{1c}-\u{1f}`): JavaScript knows the
 * Unicode tables, so they are not copied here. ASCII answers are computed once.
 */
function javaScriptClass(body: string, negated = false): CharTest {
  const pattern = new RegExp(`^[${negated ? '^' : ''}${body}]$`, 'u');
  const ascii = new Uint8Array(128);
  for (let c = 0; c < 128; c += 1) ascii[c] = pattern.test(String.fromCharCode(c)) ? 1 : 0;
  return (c) => (c < 128 ? ascii[c] === 1 : pattern.test(String.fromCodePoint(c)));
}

const memo = new Map<string, CharTest>();
function memoized(key: string, make: () => CharTest): CharTest {
  let test = memo.get(key);
  if (!test) {
    test = make();
    memo.set(key, test);
  }
  return test;
}

const classOf = (body: string, negated = false) =>
  memoized(`${negated ? '^' : ''}${body}`, () => javaScriptClass(body, negated));

/** Tables keyed by names a pattern writes: a Map, so that `\p{constructor}` finds nothing. */
const tableOf = (entries: Record<string, string>): ReadonlyMap<string, string> => new Map(Object.entries(entries));

const ASCII_DIGIT = range(48, 57);
const isAsciiWord: CharTest = (c) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isAsciiSpace: CharTest = (c) => c === 32 || (c >= 9 && c <= 13);

/** POSIX and `java…` classes with their default (ASCII) meaning, as JavaScript class bodies. */
const NAMED_CLASSES: ReadonlyMap<string, string> = tableOf({
  Lower: 'a-z',
  Upper: 'A-Z',
  ASCII: '\\u{0}-\\u{7f}',
  Alpha: 'a-zA-Z',
  Digit: '0-9',
  Alnum: 'a-zA-Z0-9',
  Punct: '\\u{21}-\\u{2f}\\u{3a}-\\u{40}\\u{5b}-\\u{60}\\u{7b}-\\u{7e}',
  Graph: '\\u{21}-\\u{7e}',
  Print: '\\u{20}-\\u{7e}',
  Blank: ' \\t',
  Cntrl: '\\u{0}-\\u{1f}\\u{7f}',
  XDigit: '0-9a-fA-F',
  Space: ' \\t\\n\\u{b}\\f\\r',
  javaLowerCase: '\\p{Ll}',
  javaUpperCase: '\\p{Lu}',
  javaWhitespace:
    '\\t\\n\\u{b}\\f\\r\\u{1c}-\\u{1f} \\u{1680}\\u{2000}-\\u{2006}\\u{2008}-\\u{200a}\\u{2028}\\u{2029}\\u{205f}\\u{3000}',
  javaMirrored: '\\p{Bidi_M}',
  javaLetter: '\\p{L}',
  javaDigit: '\\p{Nd}',
  javaLetterOrDigit: '\\p{L}\\p{Nd}',
  javaAlphabetic: '\\p{Alphabetic}',
});

/** The same classes under UNICODE_CHARACTER_CLASS (`(?U)`), as Java's documentation of `Pattern` defines them. */
const UNICODE_NAMED_CLASSES: ReadonlyMap<string, string> = tableOf({
  Lower: '\\p{Lowercase}',
  Upper: '\\p{Uppercase}',
  Alpha: '\\p{Alphabetic}',
  Digit: '\\p{Nd}',
  Alnum: '\\p{Alphabetic}\\p{Nd}',
  Punct: '\\p{P}',
  Blank: '\\t\\p{Zs}',
  Cntrl: '\\p{Cc}',
  XDigit: '\\p{Nd}\\p{Hex_Digit}',
  Space: '\\p{White_Space}',
});

const unicodeGraph = classOf('\\p{White_Space}\\p{Cc}\\p{Cs}\\p{Cn}', true);
const unicodeClasses = {
  digit: classOf('\\p{Nd}'),
  space: classOf('\\p{White_Space}'),
  word: classOf('\\p{Alphabetic}\\p{Mn}\\p{Me}\\p{Mc}\\p{Nd}\\p{Pc}\\p{Join_Control}'),
};

/** `\d`, `\w`, `\s` (and `\b`'s word characters): ASCII unless UNICODE_CHARACTER_CLASS. */
export function predefinedClass(letter: 'd' | 'w' | 's', unicode: boolean): CharTest {
  if (letter === 'd') return unicode ? unicodeClasses.digit : ASCII_DIGIT;
  if (letter === 'w') return unicode ? unicodeClasses.word : isAsciiWord;
  return unicode ? unicodeClasses.space : isAsciiSpace;
}

export const horizontalSpace = classOf(' \\t\\u{a0}\\u{1680}\\u{180e}\\u{2000}-\\u{200a}\\u{202f}\\u{205f}\\u{3000}');
export const verticalSpace = classOf('\\n\\u{b}\\f\\r\\u{85}\\u{2028}\\u{2029}');
export const isMark = classOf('\\p{M}');

/** Java's binary properties and categories whose JavaScript name differs. */
const JAVA_PROPERTY_ALIASES: ReadonlyMap<string, string> = tableOf({
  Digit: 'Nd',
  WhiteSpace: 'White_Space',
  HexDigit: 'Hex_Digit',
  JoinControl: 'Join_Control',
  NoncharacterCodePoint: 'Noncharacter_Code_Point',
  Letter: 'L',
  Control: 'Cc',
  Punctuation: 'P',
});

/** Names JavaScript knows, remembered (the unknown are not: a configuration could write any number of them). */
const knownProperties = new Set<string>();

/** Whether JavaScript knows `\p{name}`. */
function javaScriptKnows(name: string): boolean {
  if (knownProperties.has(name)) return true;
  try {
    new RegExp(`\\p{${name}}`, 'u');
  } catch {
    return false;
  }
  knownProperties.add(name);
  return true;
}

/**
 * The set of a `\p{name}` (`\pL` gives `L`): POSIX and `java…` classes, categories (`Lu`, `IsLu`, `gc=Lu`),
 * scripts (`IsLatin`, `sc=Latin`), binary properties (`IsAlphabetic`). Unicode blocks (`InGreek`), which
 * JavaScript does not know, are read as the script of the same name. Undefined when Java would not know it either.
 */
export function namedClass(name: string, unicode: boolean): CharTest | undefined {
  if (name === 'Graph' && unicode) return unicodeGraph;
  if (name === 'Print' && unicode) {
    const blank = classOf(UNICODE_NAMED_CLASSES.get('Blank')!);
    const control = classOf(UNICODE_NAMED_CLASSES.get('Cntrl')!);
    return memoized('unicode Print', () => (c) => (unicodeGraph(c) || blank(c)) && !control(c));
  }
  const named = (unicode ? UNICODE_NAMED_CLASSES.get(name) : undefined) ?? NAMED_CLASSES.get(name);
  if (named !== undefined) return classOf(named);
  const candidates: string[] = [];
  const valueOf = (prefixed: string) => prefixed.slice(prefixed.indexOf('=') + 1);
  if (name.startsWith('Is')) {
    const bare = name.slice(2);
    candidates.push(JAVA_PROPERTY_ALIASES.get(bare) ?? bare, `Script=${bare}`);
  } else if (name.startsWith('In')) {
    candidates.push(`Script=${name.slice(2)}`);
  } else if (/^(general_category|gc)=/.test(name)) {
    candidates.push(`General_Category=${valueOf(name)}`);
  } else if (/^(script|sc)=/.test(name)) {
    candidates.push(`Script=${valueOf(name)}`);
  } else if (/^(block|blk)=/.test(name)) {
    candidates.push(`Script=${valueOf(name)}`);
  } else if (!name.includes('=')) {
    candidates.push(name);
  }
  const found = candidates.find(javaScriptKnows);
  return found === undefined ? undefined : classOf(`\\p{${found}}`);
}

/** The single code point a string case-maps to, or the code point itself when the mapping gives several. */
function simpleCase(c: number, upper: boolean): number {
  const text = String.fromCodePoint(c);
  const mapped = upper ? text.toUpperCase() : text.toLowerCase();
  const first = mapped.codePointAt(0)!;
  return mapped.length === String.fromCodePoint(first).length ? first : c;
}

/** The other case of an ASCII letter, or the code point itself. */
const asciiOtherCase = (c: number) => (c >= 65 && c <= 90 ? c + 32 : c >= 97 && c <= 122 ? c - 32 : c);

/**
 * A set that ignores case as CASE_INSENSITIVE does: only ASCII letters by default, every letter with
 * UNICODE_CASE (`(?iu)`), by comparing the upper and lower case of the character.
 */
export function ignoringCase(test: CharTest, unicodeCase: boolean): CharTest {
  if (!unicodeCase) return (c) => test(c) || (c < 128 && test(asciiOtherCase(c)));
  return (c) => test(c) || test(simpleCase(c, true)) || test(simpleCase(c, false));
}

/** Whether a letter has another case under the current flags (literal texts are compared exactly otherwise). */
export function hasOtherCase(c: number, unicodeCase: boolean): boolean {
  if (!unicodeCase) return asciiOtherCase(c) !== c;
  return simpleCase(c, true) !== c || simpleCase(c, false) !== c;
}
