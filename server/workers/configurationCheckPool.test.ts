import { afterEach, describe, expect, it } from 'vitest';
import { validateConfiguration } from '../../src/domain/configuration/index.ts';
import { ConfigurationCheckPool, ConfigurationOverBudget } from './configurationCheckPool.ts';

const encode = (text: string) => new TextEncoder().encode(text);

const CONFIGURATION = `OA_version: 2.0.1
OA_application: {OA_name: pooled, OA_version: 1.0.0}
OA_data:
  sites:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      opened:
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy, OA_duration: 1 day}}
      name:
        OA_checker: {OA_name: OA_string, OA_params: {OA_pattern: "[a-z]+"}}
    OA_computedComponents:
      label:
        OA_computation: {OA_expression: "return datum.name.toUpperCase()"}
`;

/** A valid configuration of `entries` data entries: long enough to validate that a budget of a millisecond is spent. */
const large = (entries: number) =>
  `OA_version: 2.0.1\nOA_application: {OA_name: large, OA_version: 1.0.0}\nOA_data:\n` +
  Array.from(
    { length: entries },
    (_, index) =>
      `  e${index}:\n    OA_naturalKey: [code]\n    OA_basicComponents:\n      code: null\n      value:\n        OA_checker: {OA_name: OA_integer}\n`,
  ).join('');

let pool: ConfigurationCheckPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('the configuration check pool', () => {
  it('answers, from a worker, what the validation answers on this thread (the model crosses the boundary whole)', async () => {
    pool = new ConfigurationCheckPool({ workers: 1, budgetMs: 60_000 });
    const bytes = encode(CONFIGURATION);
    const answer = await pool.validate(bytes, 'pooled.yaml');
    expect(answer.ok).toBe(true);
    // Strict: no class instance or function of the model lost on the way (a clone keeps plain data only).
    expect(answer).toStrictEqual(validateConfiguration(bytes, 'pooled.yaml'));
    // The caller's bytes stay its own (they are stored once valid).
    expect(new TextDecoder().decode(bytes)).toBe(CONFIGURATION);
  });

  it('answers the errors of an invalid configuration', async () => {
    pool = new ConfigurationCheckPool({ workers: 1, budgetMs: 60_000 });
    const bytes = encode('OA_version: 2.0.1\n');
    expect(await pool.validate(bytes, 'broken.yaml')).toStrictEqual(validateConfiguration(bytes, 'broken.yaml'));
  });

  it('stops a validation past its budget: its thread is stopped, the next validation starts another', async () => {
    pool = new ConfigurationCheckPool({ workers: 1, budgetMs: 1 });
    const over = await pool.validate(encode(large(1_000)), 'large.yaml').catch((error: unknown) => error);
    expect(over).toBeInstanceOf(ConfigurationOverBudget);
    expect((over as ConfigurationOverBudget).budgetMs).toBe(1);
    expect(pool.running).toBe(0);
    const again = await pool.validate(encode(large(1_000)), 'large.yaml').catch((error: unknown) => error);
    expect(again).toBeInstanceOf(ConfigurationOverBudget);
  });
});
