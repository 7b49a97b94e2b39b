/**
 * OA_escapeLabel, OA_buildCompositeKey, OA_buildManyCompositeKey and Ltree.fromUnescapedString use the key rules of
 * `src/domain/keys` (format reference §9.1); a text that cannot become a label is an `invalidLabel` evaluation error.
 */
import * as keys from '../keys';
import { ExpressionError } from './errors';

function guarded<A extends unknown[]>(build: (...args: A) => string): (...args: A) => string {
  return (...args) => {
    try {
      return build(...args);
    } catch (thrown) {
      if (thrown instanceof keys.LabelError)
        throw new ExpressionError('invalidLabel', thrown.message, { text: thrown.text });
      throw thrown;
    }
  };
}

export const escapeLabel = guarded(keys.escapeLabel);
export const compositeKey = guarded(keys.compositeKey);
export const manyCompositeKey = guarded(keys.manyCompositeKey);
