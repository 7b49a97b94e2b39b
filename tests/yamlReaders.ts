import type { ConfigNode } from '../src/domain/configuration/configNode';
import { readCommonYaml } from '../src/domain/configuration/readCommonYaml';
import { readFullYaml, sourceText } from '../src/domain/configuration/readYaml';

/** A YAML tree without its source object and derived index, as `toEqual` can compare it. */
function shape(node: ConfigNode | null): unknown {
  if (node === null) return null;
  if (node.kind === 'map')
    return { map: node.offset, entries: node.entries.map((entry) => [entry.key, entry.keyOffset, shape(entry.value)]) };
  if (node.kind === 'list') return { list: node.offset, items: node.items.map(shape) };
  return { scalar: node.offset, type: node.type, value: node.value, text: node.text };
}

/** The one-pass reader's tree, or undefined where it leaves the text to the `yaml` package. */
export function readInOnePass(text: string): unknown {
  const common = readCommonYaml(text, sourceText(text, { name: 'test.yaml', isArchiveEntry: false }));
  return common && shape(common.root);
}

/** The `yaml` package's tree, or the codes of its errors. */
export function readWithYamlPackage(text: string): unknown {
  const full = readFullYaml(text, sourceText(text, { name: 'test.yaml', isArchiveEntry: false }));
  return full.ok ? shape(full.root) : { errors: full.errors.map((error) => error.code) };
}
