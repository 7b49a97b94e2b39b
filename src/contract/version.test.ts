import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CONTRACT_VERSION } from './version';

/**
 * The shapes of every schema the contract exports, as one digest. Devices keep answers for months (kept reads):
 * when this digest changes, the change must be additive (new optional fields, nothing removed, renamed or made
 * required), or CONTRACT_VERSION goes up with a step in src/offline/keptReadMigrations.ts. Then record the new
 * digest here, under the version it belongs to.
 */
const DIGESTS: Record<number, string> = {
  1: '06e065b1a8305883b50e44c95cda2b503e824f7677cbb8dd65f10363f14f1e2b',
};

/** A JSON schema (TypeBox writes them as plain objects): what an answer or a request may hold. */
const isSchema = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  ['type', 'anyOf', 'oneOf', 'allOf', 'const', 'enum', '$ref'].some((key) => key in value);

async function contractDigest(): Promise<string> {
  const modules = import.meta.glob(['./*.ts', '!./*.test.ts', '!./version.ts'], { eager: true });
  const schemas = Object.entries(modules)
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([file, exports]) =>
      Object.entries(exports as Record<string, unknown>)
        .filter(([, value]) => isSchema(value))
        .map(([name, value]) => [`${file}:${name}`, JSON.stringify(value)]),
    );
  expect(schemas.length, 'the contract modules export their schemas').toBeGreaterThan(50);
  return createHash('sha256').update(JSON.stringify(schemas)).digest('hex');
}

describe('the contract version', () => {
  it('is bumped, or the change recorded as additive, whenever a shape of the contract changes', async () => {
    expect(await contractDigest(), 'see the comment above DIGESTS').toBe(DIGESTS[CONTRACT_VERSION]);
  });
});
