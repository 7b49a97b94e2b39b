/**
 * `npm run corpus`: runs the compatibility corpus (`../shared/corpus/openadom`, or the folder in `TERRAIN_CORPUS`)
 * and prints, section by section, what the manifest expects and what Terrain obtains. Exits with 1 on any
 * difference; when the corpus folder is absent it says so and exits with 0. Later issues add their sections
 * (CSV uploads, deposits) to `sections` below.
 */
import { validateConfiguration } from '../../src/domain/configuration';
import { checkConfigurations, type CheckRow } from './configurations';
import { checkCsvUploads } from './csv';
import { corpusFolder, loadCorpus, type Corpus } from './manifest';

const sections: Array<(corpus: Corpus) => CheckRow[]> = [
  (corpus) => checkConfigurations(corpus, validateConfiguration),
  (corpus) => checkCsvUploads(corpus, validateConfiguration),
];

const corpus = loadCorpus();
if (!corpus) {
  console.log(
    `Corpus not run: no manifest.json in ${corpusFolder()} (set TERRAIN_CORPUS to the corpus folder to run it).`,
  );
  process.exit(0);
}

const rows = sections.flatMap((section) => section(corpus));
let currentSection = '';
for (const row of rows) {
  if (row.section !== currentSection) {
    currentSection = row.section;
    console.log(`\n== ${currentSection}`);
  }
  console.log(`${row.ok ? 'ok  ' : 'FAIL'}  ${row.name}`);
  console.log(`        expected: ${row.expected}`);
  console.log(`        obtained: ${row.obtained}`);
}
const failures = rows.filter((row) => !row.ok);
console.log(`\n${rows.length - failures.length}/${rows.length} checks match the manifest (${corpus.folder}).`);
if (failures.length > 0) {
  console.log(`Differences:\n${failures.map((row) => `  ${row.section}: ${row.name}`).join('\n')}`);
  process.exit(1);
}
