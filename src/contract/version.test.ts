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
  1: '4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945',
};

async function contractDigest(): Promise<string> {
  const modules = import.meta.glob(['./*.ts', '!./*.test.ts', '!./version.ts'], { eager: true });
  const schemas = Object.entries(modules)
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([file, exports]) =>
      Object.entries(exports as Record<string, unknown>)
        .filter(
          ([, value]) => typeof value === 'object' && value !== null && Object.getOwnPropertySymbols(value).length > 0,
        )
        .map(([name, value]) => [`${file}:${name}`, JSON.stringify(value)]),
    );
  return createHash('sha256').update(JSON.stringify(schemas)).digest('hex');
}

describe('the contract version', () => {
  it('is bumped, or the change recorded as additive, whenever a shape of the contract changes', async () => {
    expect(await contractDigest(), 'see the comment above DIGESTS').toBe(DIGESTS[CONTRACT_VERSION]);
  });
});
