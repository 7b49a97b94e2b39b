import type { Result } from '../errors';
import { buildApplicationModel } from './buildModel';
import type { ExpressionCompiler } from './context';
import type { ConfigurationError } from './errorCodes';
import type { ApplicationModel } from './model';
import { readConfigurationDocument } from './readConfiguration';

/** The outcome of validating an uploaded configuration: the model, or every problem found. */
export type ConfigurationResult = Result<ApplicationModel, ConfigurationError>;

/**
 * Builds the validation entry point around an expression compiler: the product wires the expression engine in
 * (`index.ts`); keeping it a parameter keeps this module free of a hard dependency on the engine's internals.
 */
export function createConfigurationValidator(compileExpression: ExpressionCompiler) {
  return function validateConfiguration(bytes: Uint8Array, fileName: string): ConfigurationResult {
    const document = readConfigurationDocument(bytes, fileName);
    if (!document.ok) return document;
    return buildApplicationModel(document.root, compileExpression);
  };
}
