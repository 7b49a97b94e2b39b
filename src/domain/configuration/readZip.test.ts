import { Zip, ZipDeflate, zipSync, type Zippable } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { ConfigNode } from './configNode';
import { readConfigurationDocument } from './readConfiguration';
import { ZIP_LIMITS } from './readZip';

const encode = (text: string) => new TextEncoder().encode(text);

function zip(files: Record<string, string | Uint8Array>): Uint8Array {
  const entries: Zippable = {};
  for (const [name, content] of Object.entries(files))
    entries[name] = typeof content === 'string' ? encode(content) : content;
  return zipSync(entries);
}

function keys(node: ConfigNode | undefined): string[] {
  return node?.kind === 'map' ? node.entries.map((entry) => entry.key) : [];
}

describe('zip configurations', () => {
  it('nests each entry by its path and merges them one level under the top keys (§1.2)', () => {
    const reading = readConfigurationDocument(
      zip({
        'configuration.yaml': 'OA_version: 2.0.1\nOA_application:\n  OA_name: demo\n  OA_version: 1.0.0\n',
        'OA_data.yaml': 'stations:\n  OA_naturalKey: [code]\n',
        'OA_data/measures.yaml': 'OA_naturalKey: [day]\n',
        'OA_data/stations.yaml': 'OA_naturalKey: [name]\n',
      }),
      'app.zip',
    );
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    expect(keys(reading.root)).toEqual(['OA_version', 'OA_application', 'OA_data']);
    const data = reading.root.byKey.get('OA_data')!.value;
    expect(keys(data)).toEqual(['stations', 'measures']);
    // The later entry wins for the same key.
    const stations = data.kind === 'map' ? data.byKey.get('stations')!.value : undefined;
    expect(stations?.kind === 'map' && stations.byKey.get('OA_naturalKey')!.value).toMatchObject({
      kind: 'list',
      items: [{ text: 'name' }],
    });
  });

  it('ignores a single enclosing folder, Mac resource forks and files that are not YAML', () => {
    const reading = readConfigurationDocument(
      zip({
        'app/configuration.yaml': 'OA_version: 2.0.1\n',
        'app/OA_data/stations.yml': 'OA_naturalKey: [code]\n',
        'app/README.txt': 'hello',
        '__MACOSX/app/OA_data/._stations.yml': new Uint8Array([0, 5, 22, 7, 0xff]),
      }),
      'upload',
    );
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    expect(keys(reading.root)).toEqual(['OA_version', 'OA_data']);
  });

  it('locates errors in the entry they come from', () => {
    const reading = readConfigurationDocument(
      zip({ 'configuration.yaml': 'a: 1\n', 'OA_data/x.yaml': 'b: 1\nb: 2\n' }),
      'app.zip',
    );
    expect(reading.ok).toBe(false);
    if (reading.ok) return;
    expect(reading.errors[0]).toMatchObject({ code: 'DUPLICATE_KEY', file: 'OA_data/x.yaml', line: 2, column: 1 });
  });

  it('refuses entries that climb out of the archive or are absolute', () => {
    for (const name of ['../evil.yaml', 'OA_data/../../evil.yaml', '/etc/evil.yaml']) {
      const reading = readConfigurationDocument(zip({ 'configuration.yaml': 'a: 1\n', [name]: 'b: 1\n' }), 'app.zip');
      expect(reading.ok).toBe(false);
      if (!reading.ok)
        expect(reading.errors[0]).toMatchObject({
          code: 'INVALID_CONFIGURATION_FILE',
          params: { reason: 'zipUnsafeEntry', entry: name },
        });
    }
  });

  it('refuses too many entries', () => {
    const files: Record<string, string> = {};
    for (let index = 0; index <= ZIP_LIMITS.maxEntries; index += 1)
      files[`OA_data/entry${index}.yaml`] = 'OA_naturalKey: [a]\n';
    const reading = readConfigurationDocument(zip(files), 'app.zip');
    expect(!reading.ok && reading.errors[0]).toMatchObject({
      code: 'INVALID_CONFIGURATION_FILE',
      params: { reason: 'zipTooManyEntries', maxEntries: 200 },
    });
  });

  it('refuses more than 20 MB uncompressed, before inflating anything', () => {
    const big = new Uint8Array(ZIP_LIMITS.maxUncompressedBytes + 1).fill(0x20);
    const reading = readConfigurationDocument(zip({ 'configuration.yaml': big }), 'app.zip');
    expect(!reading.ok && reading.errors[0]).toMatchObject({
      code: 'INVALID_CONFIGURATION_FILE',
      params: { reason: 'zipTooLarge' },
    });
  });

  it('refuses a damaged archive and one without YAML', () => {
    const damaged = readConfigurationDocument(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), 'app.zip');
    expect(!damaged.ok && damaged.errors[0]).toMatchObject({
      code: 'INVALID_CONFIGURATION_FILE',
      params: { reason: 'invalidZip' },
    });
    const noYaml = readConfigurationDocument(zip({ 'notes.txt': 'x' }), 'app.zip');
    expect(!noYaml.ok && noYaml.errors[0]).toMatchObject({
      code: 'INVALID_CONFIGURATION_FILE',
      params: { reason: 'zipWithoutYaml' },
    });
  });

  it('reads the only top YAML file as the root sections whatever its name, not as a section named after it', () => {
    const configuration = 'OA_version: 2.0.1\nOA_application:\n  OA_name: demo\n  OA_version: 1.0.0\n';
    const alone = readConfigurationDocument(zip({ 'myapp-config.yaml': configuration }), 'app.zip');
    expect(alone.ok && keys(alone.root)).toEqual(['OA_version', 'OA_application']);
    const inFolder = readConfigurationDocument(
      zip({
        'app/myapp.yml': configuration,
        'app/OA_data.yaml': 'stations:\n  OA_naturalKey: [code]\n',
        'app/OA_data/measures.yaml': 'OA_naturalKey: [day]\n',
      }),
      'app.zip',
    );
    expect(inFolder.ok && keys(inFolder.root)).toEqual(['OA_version', 'OA_application', 'OA_data']);
    expect(inFolder.ok && keys(inFolder.root.byKey.get('OA_data')!.value)).toEqual(['stations', 'measures']);
  });

  it('keeps the original reading of a top file beside configuration.yaml', () => {
    const reading = readConfigurationDocument(
      zip({ 'configuration.yaml': 'OA_version: 2.0.1\n', 'notes.yaml': 'a: 1\n' }),
      'app.zip',
    );
    expect(reading.ok && keys(reading.root)).toEqual(['OA_version', 'notes']);
  });

  it('refuses several top YAML files none named configuration.yaml, naming them and the expected name', () => {
    const reading = readConfigurationDocument(
      zip({
        'first.yaml': 'OA_version: 2.0.1\n',
        'second.yml': 'OA_version: 2.0.1\n',
        'OA_data/stations.yaml': 'OA_naturalKey: [code]\n',
      }),
      'app.zip',
    );
    expect(reading.ok).toBe(false);
    if (reading.ok) return;
    expect(reading.errors).toEqual([
      {
        code: 'INVALID_CONFIGURATION_FILE',
        path: '',
        params: { reason: 'zipAmbiguousRoot', files: ['first.yaml', 'second.yml'], expected: 'configuration.yaml' },
      },
    ]);
  });
});

/** The archive with the size its only entry declares in the central directory changed to `declared`. */
function declaring(archive: Uint8Array, declared: number): Uint8Array {
  const forged = archive.slice();
  const view = new DataView(forged.buffer);
  const central = forged.findIndex(
    (byte, at) => byte === 0x50 && forged[at + 1] === 0x4b && forged[at + 2] === 0x01 && forged[at + 3] === 0x02,
  );
  view.setUint32(central + 24, declared, true);
  return forged;
}

const CONFIGURATION = 'OA_version: 2.0.1\nOA_application:\n  OA_name: demo\n  OA_version: 1.0.0\n';

describe('zip entries that do not hold the size they declare', () => {
  it('refuses an entry that inflates past its declared size, naming it, rather than reading it cut', () => {
    const reading = readConfigurationDocument(declaring(zip({ 'configuration.yaml': CONFIGURATION }), 20), 'app.zip');
    expect(!reading.ok && reading.errors).toEqual([
      {
        code: 'INVALID_CONFIGURATION_FILE',
        path: '',
        params: { reason: 'zipEntrySizeMismatch', entry: 'configuration.yaml', declaredBytes: 20 },
      },
    ]);
  });

  it('stops a bomb at its declared size: megabytes of spaces declared as a hundred bytes', () => {
    const bomb = zip({ 'configuration.yaml': new Uint8Array(ZIP_LIMITS.maxUncompressedBytes).fill(0x20) });
    expect(bomb.length).toBeLessThan(100_000);
    const reading = readConfigurationDocument(declaring(bomb, 100), 'app.zip');
    expect(!reading.ok && reading.errors[0].params).toEqual({
      reason: 'zipEntrySizeMismatch',
      entry: 'configuration.yaml',
      declaredBytes: 100,
    });
  });

  it('refuses an entry that inflates to less than it declares, stored or deflated', () => {
    const deflated = declaring(zip({ 'configuration.yaml': CONFIGURATION }), CONFIGURATION.length + 1);
    const stored = declaring(
      zipSync({ 'configuration.yaml': [encode(CONFIGURATION), { level: 0 }] }),
      CONFIGURATION.length + 1,
    );
    for (const archive of [deflated, stored]) {
      const reading = readConfigurationDocument(archive, 'app.zip');
      expect(!reading.ok && reading.errors[0].params).toMatchObject({ reason: 'zipEntrySizeMismatch' });
    }
  });

  it('reads an entry whose sizes are only in a data descriptor, as streaming archivers write them', () => {
    const chunks: Uint8Array[] = [];
    const streaming = new Zip((error, chunk) => {
      if (error) throw error;
      chunks.push(chunk);
    });
    const entry = new ZipDeflate('configuration.yaml');
    streaming.add(entry);
    entry.push(encode(CONFIGURATION), true);
    streaming.end();
    const archive = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    chunks.reduce((at, chunk) => (archive.set(chunk, at), at + chunk.length), 0);
    const reading = readConfigurationDocument(archive, 'app.zip');
    expect(reading.ok && keys(reading.root)).toEqual(['OA_version', 'OA_application']);
  });

  it('reads sizes given in the ZIP64 extra field of the central directory', () => {
    const reading = readConfigurationDocument(
      storedWithZip64Sizes('configuration.yaml', encode(CONFIGURATION)),
      'app.zip',
    );
    expect(reading.ok && keys(reading.root)).toEqual(['OA_version', 'OA_application']);
  });
});

/** One stored entry whose central directory gives its sizes as 0xFFFFFFFF and the real ones in a ZIP64 field. */
function storedWithZip64Sizes(name: string, content: Uint8Array): Uint8Array {
  const nameBytes = encode(name);
  const localLength = 30 + nameBytes.length;
  const centralLength = 46 + nameBytes.length + 20;
  const archive = new Uint8Array(localLength + content.length + centralLength + 22);
  const view = new DataView(archive.buffer);
  view.setUint32(0, 0x04034b50, true);
  view.setUint16(26, nameBytes.length, true);
  archive.set(nameBytes, 30);
  archive.set(content, localLength);
  const central = localLength + content.length;
  view.setUint32(central, 0x02014b50, true);
  view.setUint32(central + 20, 0xffffffff, true);
  view.setUint32(central + 24, 0xffffffff, true);
  view.setUint16(central + 28, nameBytes.length, true);
  view.setUint16(central + 30, 20, true);
  archive.set(nameBytes, central + 46);
  const extra = central + 46 + nameBytes.length;
  view.setUint16(extra, 0x0001, true);
  view.setUint16(extra + 2, 16, true);
  view.setUint32(extra + 4, content.length, true);
  view.setUint32(extra + 12, content.length, true);
  const end = central + centralLength;
  view.setUint32(end, 0x06054b50, true);
  view.setUint16(end + 8, 1, true);
  view.setUint16(end + 10, 1, true);
  view.setUint32(end + 12, centralLength, true);
  view.setUint32(end + 16, central, true);
  return archive;
}
