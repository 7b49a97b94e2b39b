import { describe, expect, it, vi } from 'vitest';
import type { ConfigurationWorkerApi } from './configurationWorkerApi';

const exposed = vi.hoisted(() => ({ handlers: undefined as unknown }));
vi.mock('comlink', () => ({ expose: (handlers: unknown) => (exposed.handlers = handlers) }));

describe('the configuration worker', () => {
  it('exposes validateConfiguration through Comlink', async () => {
    await import('./configuration.worker');
    const handlers = exposed.handlers as ConfigurationWorkerApi;
    const yaml = 'OA_version: 2.0.1\nOA_application:\n  OA_name: demo\n  OA_version: 1.0.0\n';
    const result = handlers.validateConfiguration(new TextEncoder().encode(yaml), 'demo.yaml');
    expect(result.ok && result.value.name).toBe('demo');
    expect(handlers.validateConfiguration(new Uint8Array(), 'empty.yaml')).toEqual({
      ok: false,
      errors: [{ code: 'EMPTY_FILE', path: '', params: {} }],
      warnings: [],
    });
  });
});
