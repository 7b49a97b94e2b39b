import type { ConfigurationResult } from '../../src/domain/configuration/index.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import type { ServerContext } from '../context.ts';
import { ConfigurationOverBudget } from '../workers/configurationCheckPool.ts';
import { WorkerLost } from '../workers/workerPool.ts';

/**
 * Validates an uploaded configuration in a worker thread (`ctx.configurations`): a refusal when the validation
 * ran out of time (CONFIGURATION_CHECK_BUDGET_EXCEEDED) or its worker crashed (CHECK_INTERRUPTED, send again).
 */
export async function checkConfiguration(
  ctx: ServerContext,
  bytes: Uint8Array,
  fileName: string,
): Promise<ConfigurationResult> {
  try {
    return await ctx.configurations.validate(bytes, fileName);
  } catch (error) {
    if (error instanceof ConfigurationOverBudget)
      throw new Refusal('CONFIGURATION_CHECK_BUDGET_EXCEEDED', { budgetSeconds: error.budgetMs / 1000 });
    if (error instanceof WorkerLost) throw new Refusal('CHECK_INTERRUPTED');
    throw error;
  }
}
