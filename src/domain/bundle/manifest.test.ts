import { describe, expect, it } from 'vitest';
import { manifestText, type BundleManifest } from './manifest';

const manifest = (files: number) =>
  ({
    format: 'terrain-upload-bundle',
    additionalFiles: Array.from({ length: files }, (_, i) => ({ path: `files/${i}.pdf`, size: i })),
  }) as unknown as BundleManifest;

describe('the manifest a bundle holds', () => {
  it('is indented while a restore can read it so, on one line past that, and refused past even that', () => {
    const small = manifestText(manifest(2), 10_000);
    expect(small).toContain('\n  ');
    const indentedSize = new TextEncoder().encode(JSON.stringify(manifest(200), null, 2)).byteLength;
    const compact = manifestText(manifest(200), indentedSize - 1);
    expect(compact).toBe(JSON.stringify(manifest(200)));
    expect(() => manifestText(manifest(200), compact.length - 1)).toThrow(/exceed/);
  });
});
