/**
 * Unicode character names, as Java's Character.getName gives them, for the characters that label escaping meets
 * in practice (ASCII, Latin-1, common punctuation, Greek letters). OpenADOM spells a character that cannot appear
 * in a label by its name (`:` → `COLON`); characters missing here are spelled `U` + hex code instead of their name.
 */

const LETTER_NAMES = [
  'A WITH GRAVE',
  'A WITH ACUTE',
  'A WITH CIRCUMFLEX',
  'A WITH TILDE',
  'A WITH DIAERESIS',
  'A WITH RING ABOVE',
  'AE',
  'C WITH CEDILLA',
  'E WITH GRAVE',
  'E WITH ACUTE',
  'E WITH CIRCUMFLEX',
  'E WITH DIAERESIS',
  'I WITH GRAVE',
  'I WITH ACUTE',
  'I WITH CIRCUMFLEX',
  'I WITH DIAERESIS',
  'ETH',
  'N WITH TILDE',
  'O WITH GRAVE',
  'O WITH ACUTE',
  'O WITH CIRCUMFLEX',
  'O WITH TILDE',
  'O WITH DIAERESIS',
];
const LATE_LETTER_NAMES = [
  'O WITH STROKE',
  'U WITH GRAVE',
  'U WITH ACUTE',
  'U WITH CIRCUMFLEX',
  'U WITH DIAERESIS',
  'Y WITH ACUTE',
  'THORN',
];
const DIGITS = ['ZERO', 'ONE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX', 'SEVEN', 'EIGHT', 'NINE'];
const GREEK = [
  'ALPHA',
  'BETA',
  'GAMMA',
  'DELTA',
  'EPSILON',
  'ZETA',
  'ETA',
  'THETA',
  'IOTA',
  'KAPPA',
  'LAMDA',
  'MU',
  'NU',
  'XI',
  'OMICRON',
  'PI',
  'RHO',
  'FINAL SIGMA',
  'SIGMA',
  'TAU',
  'UPSILON',
  'PHI',
  'CHI',
  'PSI',
  'OMEGA',
];

const FIXED: Record<number, string> = {
  0x00: 'NULL',
  0x01: 'START OF HEADING',
  0x02: 'START OF TEXT',
  0x03: 'END OF TEXT',
  0x04: 'END OF TRANSMISSION',
  0x05: 'ENQUIRY',
  0x06: 'ACKNOWLEDGE',
  0x07: 'BELL',
  0x08: 'BACKSPACE',
  0x09: 'CHARACTER TABULATION',
  0x0a: 'LINE FEED (LF)',
  0x0b: 'LINE TABULATION',
  0x0c: 'FORM FEED (FF)',
  0x0d: 'CARRIAGE RETURN (CR)',
  0x0e: 'SHIFT OUT',
  0x0f: 'SHIFT IN',
  0x10: 'DATA LINK ESCAPE',
  0x11: 'DEVICE CONTROL ONE',
  0x12: 'DEVICE CONTROL TWO',
  0x13: 'DEVICE CONTROL THREE',
  0x14: 'DEVICE CONTROL FOUR',
  0x15: 'NEGATIVE ACKNOWLEDGE',
  0x16: 'SYNCHRONOUS IDLE',
  0x17: 'END OF TRANSMISSION BLOCK',
  0x18: 'CANCEL',
  0x19: 'END OF MEDIUM',
  0x1a: 'SUBSTITUTE',
  0x1b: 'ESCAPE',
  0x1c: 'INFORMATION SEPARATOR FOUR',
  0x1d: 'INFORMATION SEPARATOR THREE',
  0x1e: 'INFORMATION SEPARATOR TWO',
  0x1f: 'INFORMATION SEPARATOR ONE',
  0x20: 'SPACE',
  0x21: 'EXCLAMATION MARK',
  0x22: 'QUOTATION MARK',
  0x23: 'NUMBER SIGN',
  0x24: 'DOLLAR SIGN',
  0x25: 'PERCENT SIGN',
  0x26: 'AMPERSAND',
  0x27: 'APOSTROPHE',
  0x28: 'LEFT PARENTHESIS',
  0x29: 'RIGHT PARENTHESIS',
  0x2a: 'ASTERISK',
  0x2b: 'PLUS SIGN',
  0x2c: 'COMMA',
  0x2d: 'HYPHEN-MINUS',
  0x2e: 'FULL STOP',
  0x2f: 'SOLIDUS',
  0x3a: 'COLON',
  0x3b: 'SEMICOLON',
  0x3c: 'LESS-THAN SIGN',
  0x3d: 'EQUALS SIGN',
  0x3e: 'GREATER-THAN SIGN',
  0x3f: 'QUESTION MARK',
  0x40: 'COMMERCIAL AT',
  0x5b: 'LEFT SQUARE BRACKET',
  0x5c: 'REVERSE SOLIDUS',
  0x5d: 'RIGHT SQUARE BRACKET',
  0x5e: 'CIRCUMFLEX ACCENT',
  0x5f: 'LOW LINE',
  0x60: 'GRAVE ACCENT',
  0x7b: 'LEFT CURLY BRACKET',
  0x7c: 'VERTICAL LINE',
  0x7d: 'RIGHT CURLY BRACKET',
  0x7e: 'TILDE',
  0x7f: 'DELETE',
  0x80: 'LATIN 1 SUPPLEMENT 80',
  0x81: 'LATIN 1 SUPPLEMENT 81',
  0x82: 'BREAK PERMITTED HERE',
  0x83: 'NO BREAK HERE',
  0x84: 'LATIN 1 SUPPLEMENT 84',
  0x85: 'NEXT LINE (NEL)',
  0x86: 'START OF SELECTED AREA',
  0x87: 'END OF SELECTED AREA',
  0x88: 'CHARACTER TABULATION SET',
  0x89: 'CHARACTER TABULATION WITH JUSTIFICATION',
  0x8a: 'LINE TABULATION SET',
  0x8b: 'PARTIAL LINE FORWARD',
  0x8c: 'PARTIAL LINE BACKWARD',
  0x8d: 'REVERSE LINE FEED',
  0x8e: 'SINGLE SHIFT TWO',
  0x8f: 'SINGLE SHIFT THREE',
  0x90: 'DEVICE CONTROL STRING',
  0x91: 'PRIVATE USE ONE',
  0x92: 'PRIVATE USE TWO',
  0x93: 'SET TRANSMIT STATE',
  0x94: 'CANCEL CHARACTER',
  0x95: 'MESSAGE WAITING',
  0x96: 'START OF GUARDED AREA',
  0x97: 'END OF GUARDED AREA',
  0x98: 'START OF STRING',
  0x99: 'LATIN 1 SUPPLEMENT 99',
  0x9a: 'SINGLE CHARACTER INTRODUCER',
  0x9b: 'CONTROL SEQUENCE INTRODUCER',
  0x9c: 'STRING TERMINATOR',
  0x9d: 'OPERATING SYSTEM COMMAND',
  0x9e: 'PRIVACY MESSAGE',
  0x9f: 'APPLICATION PROGRAM COMMAND',
  0xa0: 'NO-BREAK SPACE',
  0xa1: 'INVERTED EXCLAMATION MARK',
  0xa2: 'CENT SIGN',
  0xa3: 'POUND SIGN',
  0xa4: 'CURRENCY SIGN',
  0xa5: 'YEN SIGN',
  0xa6: 'BROKEN BAR',
  0xa7: 'SECTION SIGN',
  0xa8: 'DIAERESIS',
  0xa9: 'COPYRIGHT SIGN',
  0xaa: 'FEMININE ORDINAL INDICATOR',
  0xab: 'LEFT-POINTING DOUBLE ANGLE QUOTATION MARK',
  0xac: 'NOT SIGN',
  0xad: 'SOFT HYPHEN',
  0xae: 'REGISTERED SIGN',
  0xaf: 'MACRON',
  0xb0: 'DEGREE SIGN',
  0xb1: 'PLUS-MINUS SIGN',
  0xb2: 'SUPERSCRIPT TWO',
  0xb3: 'SUPERSCRIPT THREE',
  0xb4: 'ACUTE ACCENT',
  0xb5: 'MICRO SIGN',
  0xb6: 'PILCROW SIGN',
  0xb7: 'MIDDLE DOT',
  0xb8: 'CEDILLA',
  0xb9: 'SUPERSCRIPT ONE',
  0xba: 'MASCULINE ORDINAL INDICATOR',
  0xbb: 'RIGHT-POINTING DOUBLE ANGLE QUOTATION MARK',
  0xbc: 'VULGAR FRACTION ONE QUARTER',
  0xbd: 'VULGAR FRACTION ONE HALF',
  0xbe: 'VULGAR FRACTION THREE QUARTERS',
  0xbf: 'INVERTED QUESTION MARK',
  0xd7: 'MULTIPLICATION SIGN',
  0xdf: 'LATIN SMALL LETTER SHARP S',
  0xf7: 'DIVISION SIGN',
  0xff: 'LATIN SMALL LETTER Y WITH DIAERESIS',
  0x0111: 'LATIN SMALL LETTER D WITH STROKE',
  0x0127: 'LATIN SMALL LETTER H WITH STROKE',
  0x0131: 'LATIN SMALL LETTER DOTLESS I',
  0x0153: 'LATIN SMALL LIGATURE OE',
  0x0152: 'LATIN CAPITAL LIGATURE OE',
  0x02c6: 'MODIFIER LETTER CIRCUMFLEX ACCENT',
  0x02c7: 'CARON',
  0x02d8: 'BREVE',
  0x02d9: 'DOT ABOVE',
  0x02da: 'RING ABOVE',
  0x02db: 'OGONEK',
  0x02dc: 'SMALL TILDE',
  0x02dd: 'DOUBLE ACUTE ACCENT',
  0x2013: 'EN DASH',
  0x2014: 'EM DASH',
  0x2018: 'LEFT SINGLE QUOTATION MARK',
  0x2019: 'RIGHT SINGLE QUOTATION MARK',
  0x201c: 'LEFT DOUBLE QUOTATION MARK',
  0x201d: 'RIGHT DOUBLE QUOTATION MARK',
  0x2022: 'BULLET',
  0x2026: 'HORIZONTAL ELLIPSIS',
  0x2030: 'PER MILLE SIGN',
  0x20ac: 'EURO SIGN',
  0x2103: 'DEGREE CELSIUS',
  0x2122: 'TRADE MARK SIGN',
  0x2126: 'OHM SIGN',
  0x2192: 'RIGHTWARDS ARROW',
  0x2212: 'MINUS SIGN',
  0x2264: 'LESS-THAN OR EQUAL TO',
  0x2265: 'GREATER-THAN OR EQUAL TO',
};

function buildNames(): Map<number, string> {
  const names = new Map<number, string>(Object.entries(FIXED).map(([code, name]) => [Number(code), name]));
  DIGITS.forEach((digit, k) => names.set(0x30 + k, `DIGIT ${digit}`));
  for (let k = 0; k < 26; k++) {
    const letter = String.fromCharCode(65 + k);
    names.set(0x41 + k, `LATIN CAPITAL LETTER ${letter}`);
    names.set(0x61 + k, `LATIN SMALL LETTER ${letter}`);
  }
  LETTER_NAMES.forEach((name, k) => {
    names.set(0xc0 + k, `LATIN CAPITAL LETTER ${name}`);
    names.set(0xe0 + k, `LATIN SMALL LETTER ${name}`);
  });
  LATE_LETTER_NAMES.forEach((name, k) => {
    names.set(0xd8 + k, `LATIN CAPITAL LETTER ${name}`);
    names.set(0xf8 + k, `LATIN SMALL LETTER ${name}`);
  });
  GREEK.forEach((name, k) => {
    names.set(0x3b1 + k, `GREEK SMALL LETTER ${name}`);
    if (name !== 'FINAL SIGMA') names.set(0x391 + k, `GREEK CAPITAL LETTER ${name}`);
  });
  return names;
}

const NAMES = buildNames();

/** The Unicode name of a UTF-16 code unit, or `U` + its hex code when this table does not know it. */
export function characterName(code: number): string {
  return NAMES.get(code) ?? 'U' + code.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * Names as OpenADOM compares them to detect an already escaped label (spaces and hyphens removed), for the
 * characters below U+0400 this table knows.
 */
export const KNOWN_SYMBOL_CODES: readonly string[] = [...NAMES]
  .filter(([code]) => code < 0x400)
  .map(([, name]) => name.replace(/[ -]/g, ''));
