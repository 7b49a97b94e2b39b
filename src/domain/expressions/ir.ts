/**
 * The compiled form the evaluator walks: names are resolved to frame slots, static calls to their implementation,
 * and every allow-list check is already done. Built only by compile.ts.
 */
import type { Position } from './ast';
import type { ContextVariable } from './context';
import type { HelperName } from './helpers';
import type { LookupPlan } from './findIndex';
import type { EvaluationErrorCode } from './errors';
import type { StaticMethod } from './staticClass';
import type { TypeName } from './coercion';

/** Variables of one script run or one closure call; closures keep the frame they were created in. */
export interface Frame {
  readonly slots: unknown[];
  readonly parent: Frame | null;
}

export interface DeclaredType {
  readonly name: TypeName;
  /** `int`, `boolean`, …: null is refused. */
  readonly primitive: boolean;
}

/** Where an assignment writes: a declared variable, or a script variable of the binding. */
export type VariableRef =
  { readonly kind: 'local'; readonly depth: number; readonly slot: number } | { readonly kind: 'binding' };

export type BinaryOp =
  '+' | '-' | '*' | '/' | '%' | '**' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '<=>' | 'in' | '!in' | '==~' | '=~';

interface At {
  readonly pos: Position;
}

export interface ClosureNode extends At {
  readonly k: 'closure';
  readonly params: readonly { readonly slot: number; readonly type: DeclaredType | null; readonly name: string }[];
  /** True for a closure without `->`: one optional parameter named `it`. */
  readonly implicitIt: boolean;
  readonly frameSize: number;
  readonly body: readonly Node[];
}

export type Node =
  | (At & { readonly k: 'const'; readonly value: unknown })
  | (At & { readonly k: 'gstring'; readonly strings: readonly string[]; readonly parts: readonly Node[] })
  | (At & { readonly k: 'list'; readonly items: readonly Node[] })
  | (At & { readonly k: 'map'; readonly entries: readonly { readonly key: Node; readonly value: Node }[] })
  | (At & { readonly k: 'local'; readonly depth: number; readonly slot: number; readonly name: string })
  /** A script variable assigned without `def`: reading it before any assignment is an error, as in Groovy. */
  | (At & { readonly k: 'binding'; readonly name: string })
  | (At & { readonly k: 'context'; readonly name: ContextVariable })
  | (At & {
      readonly k: 'declare';
      readonly slot: number;
      readonly type: DeclaredType | null;
      readonly init: Node | null;
      readonly name: string;
    })
  | (At & {
      readonly k: 'assign';
      readonly target: VariableRef;
      readonly name: string;
      readonly operator: '+' | '-' | '*' | '/' | '%' | null;
      readonly type: DeclaredType | null;
      readonly value: Node;
    })
  | (At & {
      readonly k: 'property';
      readonly object: Node;
      readonly name: string;
      readonly safe: boolean;
      readonly spread: boolean;
    })
  | (At & {
      readonly k: 'dynamicProperty';
      readonly object: Node;
      readonly name: Node;
      readonly safe: boolean;
      readonly spread: boolean;
    })
  | (At & { readonly k: 'index'; readonly object: Node; readonly index: Node })
  | (At & {
      readonly k: 'method';
      readonly object: Node;
      readonly name: string;
      readonly args: readonly Node[];
      readonly safe: boolean;
      readonly spread: boolean;
    })
  | (At & { readonly k: 'static'; readonly method: StaticMethod; readonly args: readonly Node[] })
  | (At & { readonly k: 'helper'; readonly helper: HelperName; readonly args: readonly Node[] })
  | (At & { readonly k: 'callValue'; readonly callee: Node; readonly args: readonly Node[] })
  | ClosureNode
  | (At & { readonly k: 'unary'; readonly op: '!' | '-' | '+'; readonly operand: Node })
  | (At & { readonly k: 'binary'; readonly op: BinaryOp; readonly left: Node; readonly right: Node })
  | (At & { readonly k: 'and' | 'or'; readonly left: Node; readonly right: Node })
  | (At & { readonly k: 'ternary'; readonly condition: Node; readonly whenTrue: Node; readonly whenFalse: Node })
  | (At & { readonly k: 'elvis'; readonly value: Node; readonly fallback: Node })
  | (At & { readonly k: 'cast'; readonly type: DeclaredType; readonly style: 'cast' | 'as'; readonly expr: Node })
  | (At & { readonly k: 'instanceof'; readonly type: TypeName; readonly negated: boolean; readonly expr: Node })
  | (At & {
      readonly k: 'if';
      readonly condition: Node;
      readonly then: readonly Node[];
      readonly otherwise: readonly Node[] | null;
    })
  | (At & { readonly k: 'return'; readonly value: Node | null })
  | (At & { readonly k: 'throw'; readonly value: Node })
  | (At & { readonly k: 'try'; readonly body: readonly Node[]; readonly catches: readonly CatchNode[] })
  /** `list.find { it.f == key }` answered from an index of `list` by `f` (see findIndex.ts). */
  | (At & {
      readonly k: 'indexedLookup';
      readonly method: 'find' | 'findAll';
      readonly receiver: Node;
      readonly plan: LookupPlan;
      readonly key: Node;
      /** The same call, evaluated the plain way when the index cannot answer. */
      readonly closure: ClosureNode;
    });

export interface ScriptNode {
  readonly frameSize: number;
  readonly body: readonly Node[];
}

/** One `catch`: the evaluation errors it stops, and where its variable lives. */
export interface CatchNode {
  readonly codes: ReadonlySet<EvaluationErrorCode>;
  /** The class written first, which the caught value reports as its type. */
  readonly javaType: string;
  readonly slot: number;
  readonly body: readonly Node[];
}
