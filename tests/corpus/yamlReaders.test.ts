/** Every YAML file of the corpus is read by the one-pass reader itself, into the tree the `yaml` package reads. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readInOnePass, readWithYamlPackage } from '../yamlReaders';
import { corpusFolder, loadCorpus } from './manifest';

const corpus = loadCorpus();

function yamlFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.ya?ml$/.test(file))
    .sort();
}

describe('OpenADOM corpus: YAML read in one pass', () => {
  if (!corpus) {
    it.skip(`not run: no corpus manifest in ${corpusFolder()} (set TERRAIN_CORPUS to run it)`, () => {});
    return;
  }
  it.each(yamlFiles(corpus.folder))('%s', (file) => {
    const text = readFileSync(path.join(corpus.folder, file), 'utf8').replace(/^\uFEFF/, '');
    const common = readInOnePass(text);
    expect(common).toBeDefined();
    expect(common).toEqual(readWithYamlPackage(text));
  });
});
