import { buildApplicationModel, type ConfigurationResult } from './buildModel';
import type { ExpressionCompiler } from './context';
import { readConfigurationDocument } from './readConfiguration';

export type { ConfigurationResult } from './buildModel';

/**
 * Builds the validation entry point around an expression compiler: the product wires the expression engine in
 * (`index.ts`); keeping it a parameter keeps this module free of a hard dependency on the engine's internals.
 */
export function createConfigurationValidator(compileExpression: ExpressionCompiler) {
  return function validateConfiguration(bytes: Uint8Array, fileName: string): ConfigurationResult {
    const document = readConfigurationDocument(bytes, fileName);
    if (!document.ok) return { ...document, warnings: [] };
    return buildApplicationModel(document.root, compileExpression);
  };
}
