/** Syntax tree of the Groovy subset, as the parser builds it. Every node knows where it starts in the text. */

export interface Position {
  readonly line: number;
  readonly column: number;
}

/** A type written in a declaration, a cast, `as` or `instanceof`, e.g. `String`, `java.util.List<String>`. */
export interface TypeRef {
  /** The name as written, without generic arguments (`java.util.List`). */
  readonly name: string;
  readonly array: boolean;
  readonly pos: Position;
}

export type NumberLiteral = {
  readonly type: 'number';
  /** Digits as written, without underscores, sign or suffix; `0x`/`0b` prefixes kept. */
  readonly text: string;
  readonly form: 'integer' | 'decimal';
  /** Lower-cased type suffix (`l`, `g`, `f`, `d`, `i`) or ''. */
  readonly suffix: string;
};

export type LiteralValue =
  | { readonly type: 'null' }
  | { readonly type: 'boolean'; readonly value: boolean }
  | { readonly type: 'string'; readonly value: string }
  | NumberLiteral;

interface At {
  readonly pos: Position;
}

export interface LiteralExpression extends At {
  readonly kind: 'literal';
  readonly value: LiteralValue;
}

/** A double-quoted string with `${…}` or `$name` parts: `strings` has one more element than `values`. */
export interface GStringExpression extends At {
  readonly kind: 'gstring';
  readonly strings: readonly string[];
  readonly values: readonly Expression[];
}

export interface ListExpression extends At {
  readonly kind: 'list';
  readonly items: readonly Expression[];
}

export interface MapEntryExpression {
  /** A bare word or literal key is a constant; `(expr)` or a GString is computed. */
  readonly key:
    | { readonly kind: 'constant'; readonly value: LiteralValue }
    | { readonly kind: 'computed'; readonly expr: Expression };
  readonly value: Expression;
  readonly pos: Position;
}

export interface MapExpression extends At {
  readonly kind: 'map';
  readonly entries: readonly MapEntryExpression[];
}

export interface IdentifierExpression extends At {
  readonly kind: 'identifier';
  readonly name: string;
}

/** `a.b`, `a?.b`, `a*.b`, `a."b"`, `a."$b"` (the last one has a computed name). */
export interface PropertyExpression extends At {
  readonly kind: 'property';
  readonly object: Expression;
  readonly name: string | Expression;
  readonly safe: boolean;
  readonly spread: boolean;
}

export interface IndexExpression extends At {
  readonly kind: 'index';
  readonly object: Expression;
  readonly index: Expression;
}

/** `a.m(x)`, `a?.m(x)`, `a*.m(x)`, `a.m { … }`. */
export interface MethodCallExpression extends At {
  readonly kind: 'methodCall';
  readonly object: Expression;
  readonly name: string;
  readonly args: readonly Expression[];
  readonly safe: boolean;
  readonly spread: boolean;
}

/** `f(x)` where `f` is a name (helper or closure variable) or any other expression holding a closure. */
export interface CallExpression extends At {
  readonly kind: 'call';
  readonly callee: Expression;
  readonly args: readonly Expression[];
}

export interface Parameter {
  readonly name: string;
  readonly type: TypeRef | null;
  readonly pos: Position;
}

export interface ClosureExpression extends At {
  readonly kind: 'closure';
  /** null when the closure declares no `->`: it then has the implicit parameter `it`. */
  readonly params: readonly Parameter[] | null;
  readonly body: readonly Statement[];
}

export type UnaryOperator = '!' | '-' | '+';

export interface UnaryExpression extends At {
  readonly kind: 'unary';
  readonly op: UnaryOperator;
  readonly operand: Expression;
}

export type BinaryOperator =
  | '+'
  | '-'
  | '*'
  | '/'
  | '%'
  | '**'
  | '=='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | '<=>'
  | '&&'
  | '||'
  | 'in'
  | '!in'
  | '==~'
  | '=~';

export interface BinaryExpression extends At {
  readonly kind: 'binary';
  readonly op: BinaryOperator;
  readonly left: Expression;
  readonly right: Expression;
}

export interface TernaryExpression extends At {
  readonly kind: 'ternary';
  readonly condition: Expression;
  readonly whenTrue: Expression;
  readonly whenFalse: Expression;
}

export interface ElvisExpression extends At {
  readonly kind: 'elvis';
  readonly value: Expression;
  readonly fallback: Expression;
}

/** `(Type) expr` (style `cast`) or `expr as Type` (style `as`). */
export interface CastExpression extends At {
  readonly kind: 'cast';
  readonly type: TypeRef;
  readonly expr: Expression;
  readonly style: 'cast' | 'as';
}

export interface InstanceofExpression extends At {
  readonly kind: 'instanceof';
  readonly expr: Expression;
  readonly type: TypeRef;
  readonly negated: boolean;
}

export type AssignmentOperator = '=' | '+=' | '-=' | '*=' | '/=' | '%=';

export interface AssignmentExpression extends At {
  readonly kind: 'assign';
  readonly target: Expression;
  readonly op: AssignmentOperator;
  readonly value: Expression;
}

/** Kept so that `[(key): v]` and casts can tell a parenthesised expression from a bare one. */
export interface ParenthesizedExpression extends At {
  readonly kind: 'paren';
  readonly expr: Expression;
}

/** `new a.b.C(args)`: object creation, kept only for the classes the compiler allows. */
export interface NewExpression extends At {
  readonly kind: 'new';
  /** The class as written, simple or qualified. */
  readonly className: string;
  readonly args: readonly Expression[];
}

export type Expression =
  | NewExpression
  | LiteralExpression
  | GStringExpression
  | ListExpression
  | MapExpression
  | IdentifierExpression
  | PropertyExpression
  | IndexExpression
  | MethodCallExpression
  | CallExpression
  | ClosureExpression
  | UnaryExpression
  | BinaryExpression
  | TernaryExpression
  | ElvisExpression
  | CastExpression
  | InstanceofExpression
  | AssignmentExpression
  | ParenthesizedExpression;

export interface ExpressionStatement extends At {
  readonly kind: 'expressionStatement';
  readonly expr: Expression;
}

/** `def x = …`, `String x = …`, `Float f` (type null means `def`/`var`). */
export interface DeclarationStatement extends At {
  readonly kind: 'declaration';
  readonly type: TypeRef | null;
  readonly name: string;
  readonly init: Expression | null;
}

export interface IfStatement extends At {
  readonly kind: 'if';
  readonly condition: Expression;
  readonly then: readonly Statement[];
  readonly otherwise: readonly Statement[] | null;
}

export interface ReturnStatement extends At {
  readonly kind: 'return';
  readonly value: Expression | null;
}

export interface ThrowStatement extends At {
  readonly kind: 'throw';
  readonly value: Expression;
}

/** `catch (DateTimeParseException | NumberFormatException e) { … }` */
export interface CatchClause extends At {
  readonly types: readonly TypeRef[];
  readonly name: string;
  readonly body: readonly Statement[];
}

export interface TryStatement extends At {
  readonly kind: 'try';
  readonly body: readonly Statement[];
  readonly catches: readonly CatchClause[];
}

export type Statement =
  ExpressionStatement | DeclarationStatement | IfStatement | ReturnStatement | ThrowStatement | TryStatement;

/** `import a.b.C` (or `a.b.*`) at the start of the expression. */
export interface ImportDeclaration extends At {
  readonly name: string;
}

export interface Program {
  readonly imports: readonly ImportDeclaration[];
  readonly statements: readonly Statement[];
}
