import type { Problems } from './problems';
import type { DeclaredTags } from './validateTags';

/** What the expression engine answers when asked to compile a Groovy expression (its public contract). */
export type ExpressionCompilation =
  | {
      ok: true;
      expression: {
        readonly referencedReferences: readonly string[];
        readonly readsReferencesByOtherMeans: boolean;
        /** Names nothing defines: the original's Groovy compiles them too, and fails on the rows that reach them. */
        readonly unresolvedNames: ReadonlyArray<{ code: string; line: number; column: number; construct?: string }>;
      };
    }
  | {
      ok: false;
      errors: ReadonlyArray<{ code: string; message: string; line: number; column: number; construct?: string }>;
    };

export type ExpressionCompiler = (source: string) => ExpressionCompilation;

/** What a data entry looks like before it is validated, for the checks that look across entries. */
export interface EntryOutline {
  name: string;
  /** Keys of all its components, every kind, in configuration order. */
  componentKeys: readonly string[];
}

/** Shared by every validator of one run. */
export interface ValidationContext {
  readonly problems: Problems;
  readonly dataNames: readonly string[];
  readonly outlines: ReadonlyMap<string, EntryOutline>;
  readonly tags: DeclaredTags;
  readonly compileExpression: ExpressionCompiler;
}

/** The context inside one data entry (absent for the rights-request and additional-file forms). */
export interface EntryScope {
  readonly dataName: string;
}
