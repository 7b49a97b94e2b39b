/**
 * The one folding of texts for searches (reference suggestions): case and the accents of Latin letters ignored,
 * ASCII punctuation read as spaces. Character for character, so that the server applies the very same map in SQL
 * (`translate(text, SEARCH_FOLD_FROM, SEARCH_FOLD_TO)`) in its indexes and the browser, offline, in JavaScript:
 * a locale-dependent `lower()` would fold differently on a server whose database has another collation.
 */
const BOUNDARIES = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~\t\n\r\u00a0\u2018\u2019«»';

const PAIRS: Array<[string, string]> = [
  ['ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'],
  ['ÀÁÂÃÄÅàáâãäåĀāĂăĄą', 'aaaaaaaaaaaaaaaaaa'],
  ['ÇçĆćĈĉĊċČč', 'cccccccccc'],
  ['ĎďĐđ', 'dddd'],
  ['ÈÉÊËèéêëĒēĔĕĖėĘęĚě', 'eeeeeeeeeeeeeeeeee'],
  ['ĜĝĞğĠġĢģ', 'gggggggg'],
  ['ĤĥĦħ', 'hhhh'],
  ['ÌÍÎÏìíîïĨĩĪīĬĭĮįİı', 'iiiiiiiiiiiiiiiiii'],
  ['Ĵĵ', 'jj'],
  ['Ķķ', 'kk'],
  ['ĹĺĻļĽľĿŀŁł', 'llllllllll'],
  ['ÑñŃńŅņŇň', 'nnnnnnnn'],
  ['ÒÓÔÕÖØòóôõöøŌōŎŏŐő', 'oooooooooooooooooo'],
  ['ŔŕŖŗŘř', 'rrrrrr'],
  ['ŚśŜŝŞşŠšß', 'sssssssss'],
  ['ŢţŤťŦŧ', 'tttttt'],
  ['ÙÚÛÜùúûüŨũŪūŬŭŮůŰűŲų', 'uuuuuuuuuuuuuuuuuuuu'],
  ['Ŵŵ', 'ww'],
  ['ÝýÿŶŷŸ', 'yyyyyy'],
  ['ŹźŻżŽž', 'zzzzzz'],
  ['Ææ', 'aa'],
  ['Œœ', 'oo'],
  // ASCII punctuation and the usual spaces: word boundaries. The apostrophes of French (d’Anterne) as well.
  [BOUNDARIES, ' '.repeat([...BOUNDARIES].length)],
];

/**
 * Characters that stay as they are, most frequent first, lead the SQL map: `translate()` walks the map for every
 * character of a text until it finds it, and most characters of a label are these. Without them each lower-case
 * letter walked the whole map, and folding was most of the time of building or filling a search index.
 */
const UNCHANGED_FIRST = ' eastinrlouhdcmpgfbvywkxjqz0123456789';

export const SEARCH_FOLD_FROM = UNCHANGED_FIRST + PAIRS.map(([from]) => from).join('');
export const SEARCH_FOLD_TO = UNCHANGED_FIRST + PAIRS.map(([, to]) => to).join('');

const FOLD = new Map<string, string>();
for (const [from, to] of PAIRS) {
  const source = [...from];
  const target = [...to];
  if (source.length !== target.length) throw new Error(`search fold: ${from} and ${to} differ in length`);
  source.forEach((char, i) => FOLD.set(char, target[i]));
}

/** A text as searches compare it (see above). */
export function foldForSearch(text: string): string {
  let folded = '';
  for (const char of text) folded += FOLD.get(char) ?? char;
  return folded;
}

/** At most this many words of a search are used: each narrows, and a few already find one row among millions. */
export const MAX_SEARCH_WORDS = 8;
/** A word is cut to this length: nothing longer is a label's word worth matching as a prefix. */
export const MAX_SEARCH_WORD = 64;

/** The words of a search, folded: what each of them must begin a word of the searched text with. */
export function searchWords(text: string): string[] {
  return foldForSearch(text)
    .split(/\s+/)
    .filter((word) => word !== '')
    .slice(0, MAX_SEARCH_WORDS)
    .map((word) => word.slice(0, MAX_SEARCH_WORD));
}

/** Whether every word of a search begins a word of a text (the match the server's index makes). */
export function matchesSearch(text: string, words: readonly string[]): boolean {
  const own = foldForSearch(text).split(/\s+/);
  return words.every((word) => own.some((candidate) => candidate.startsWith(word)));
}
