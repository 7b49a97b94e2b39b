/**
 * Turns the syntax tree into the tree the evaluator walks, and does every safety check before anything runs:
 * names resolve to declared variables, context variables or helpers; methods, classes and types must be on the
 * allow-lists; meta-programming names (`class`, `constructor`, `getClass`, `eval`, …) are refused. All problems are
 * collected, so a configuration author sees them together.
 */
import { getterProperty } from './access';
import type * as Ast from './ast';
import { isCapitalized } from './characters';
import { resolveType } from './coercion';
import { CONTEXT_VARIABLES, type ContextVariable } from './context';
import { type EvaluationErrorCode, ExpressionError, type ExpressionSyntaxError, type SyntaxErrorCode } from './errors';
import { type LookupPlan, type PathStep, planSignature } from './findIndex';
import { METHOD_NAMES, RECORD_ACCESSORS } from './gdkMethods';
import { GROOVY_EXCEPTION_CLASS, GROOVY_EXCEPTION_CONSTRUCTOR, GROOVY_EXCEPTION_NAMES } from './groovyException';
import { HELPERS, UNSUPPORTED_HELPERS, isHelperName } from './helpers';
import type { CatchNode, ClosureNode, DeclaredType, Node, ScriptNode } from './ir';
import { caughtCodes } from './javaExceptions';
import { compileRegex } from './regexMethods';
import { literalValue } from './numbers';
import { isStaticClass, resolveStaticMember } from './staticCalls';

export interface CompileOptions {
  /**
   * Answer `find`/`findAll` closures that compare one field from an index of the list (default true); false keeps
   * the plain element-by-element evaluation, for comparison in benchmarks.
   */
  readonly indexedLookups?: boolean;
  /**
   * Names that are neither the expression's own variables nor its context's (default `refuse`: a compile error).
   * `defer` compiles them as the original's Groovy does, as reads of the context that fail when evaluated, and
   * lists them (`unresolvedNames`): a configuration the original loads is then loaded, with a warning.
   */
  readonly unknownNames?: 'refuse' | 'defer';
}

export interface CompiledScript {
  readonly script: ScriptNode;
  readonly referencedReferences: readonly string[];
  readonly readsReferencesByOtherMeans: boolean;
  /** Names read that nothing defines, when compiled with `unknownNames: 'defer'` (else they are errors). */
  readonly unresolvedNames: readonly ExpressionSyntaxError[];
}

/** Property names that reach JavaScript or Groovy meta-programming rather than data. */
const FORBIDDEN_PROPERTIES: ReadonlySet<string> = new Set([
  'constructor',
  'prototype',
  '__proto__',
  'class',
  'metaClass',
]);

/** Method and function names refused by name, for a clearer message than "unknown method". */
const FORBIDDEN_METHODS: ReadonlySet<string> = new Set([
  ...FORBIDDEN_PROPERTIES,
  'getClass',
  'forName',
  'eval',
  'execute',
  'evaluate',
  'exec',
  'getMetaClass',
  'setMetaClass',
  'invokeMethod',
  'getProperty',
  'setProperty',
  'getProperties',
  'newInstance',
  'getClassLoader',
  'with',
  'tap',
  'curry',
  'memoize',
  'trampoline',
  'rehydrate',
  'dehydrate',
  'getDelegate',
  'setDelegate',
  'getOwner',
  'println',
  'print',
  'printf',
  'sleep',
  'wait',
  'notify',
  'notifyAll',
  'finalize',
  'clone',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'valueOf',
  'toLocaleString',
  'apply',
  'bind',
]);

/** First names of qualified Java names: an unknown `java.x.Y` is reported as a refused class, not a variable. */
const PACKAGE_ROOTS: ReadonlySet<string> = new Set([
  'java',
  'javax',
  'groovy',
  'org',
  'com',
  'fr',
  'sun',
  'jdk',
  'net',
]);

/** Java packages whose imports are accepted (and ignored): they hold values, not I/O or reflection. */
const HARMLESS_PACKAGES: readonly string[] = ['java.lang', 'java.util', 'java.time', 'java.math'];

const REGEX_METHODS: ReadonlySet<string> = new Set(['split', 'replaceAll', 'replaceFirst', 'matches']);

interface LocalVariable {
  readonly slot: number;
  readonly type: DeclaredType | null;
}

/** The variables of the script or of one closure; blocks nest inside it. */
class FunctionScope {
  slotCount = 0;
  readonly blocks: Map<string, LocalVariable>[] = [new Map()];

  constructor(readonly parent: FunctionScope | null) {}

  declare(name: string, type: DeclaredType | null): LocalVariable {
    const variable = { slot: this.slotCount++, type };
    this.blocks[this.blocks.length - 1].set(name, variable);
    return variable;
  }
}

function unwrap(expr: Ast.Expression): Ast.Expression {
  return expr.kind === 'paren' ? unwrap(expr.expr) : expr;
}

function stringLiteral(expr: Ast.Expression): string | null {
  const inner = unwrap(expr);
  return inner.kind === 'literal' && inner.value.type === 'string' ? inner.value.value : null;
}

function literalToValue(value: Ast.LiteralValue): unknown {
  switch (value.type) {
    case 'null':
      return null;
    case 'boolean':
    case 'string':
      return value.value;
    case 'number':
      return literalValue(value);
  }
}

const at = (read: { name: string; pos: Ast.Position }) => ({
  line: read.pos.line,
  column: read.pos.column,
  construct: read.name,
});

class Compiler {
  private readonly errors: ExpressionSyntaxError[] = [];
  private scope = new FunctionScope(null);
  private readonly bindingAssignments = new Set<string>();
  private readonly bindingReads: { name: string; pos: Ast.Position; asFunction: boolean }[] = [];
  private readonly references: string[] = [];
  /** Reads of `references` / `referencesValues`, and how many of them were `.X` with X written out. */
  private referenceContextReads = 0;
  private namedReferenceReads = 0;

  constructor(
    private readonly indexedLookups: boolean,
    private readonly unknownNames: 'refuse' | 'defer',
  ) {}

  compile(program: Ast.Program): CompiledScript | ExpressionSyntaxError[] {
    for (const declaration of program.imports) this.checkImport(declaration);
    const body = this.statements(program.statements);
    const unresolved: ExpressionSyntaxError[] = [];
    for (const read of this.bindingReads) {
      if (this.bindingAssignments.has(read.name)) continue;
      const problem: ExpressionSyntaxError = read.asFunction
        ? { code: 'unknownMethod', message: `There is no function '${read.name}'.`, ...at(read) }
        : {
            code: 'unknownVariable',
            message: `'${read.name}' is not a variable of this expression or of its context.`,
            ...at(read),
          };
      if (this.unknownNames === 'defer') unresolved.push(problem);
      else this.errors.push(problem);
    }
    if (this.errors.length > 0) return this.sortedErrors();
    return {
      script: { frameSize: this.scope.slotCount, body },
      referencedReferences: this.references,
      readsReferencesByOtherMeans: this.referenceContextReads > this.namedReferenceReads,
      unresolvedNames: unresolved,
    };
  }

  /**
   * Imports change nothing here (every class an expression may use is known by its simple name too), so the
   * harmless ones are accepted and ignored: the original's exception class, and the Java packages of values
   * (lang, util, time, math). Any other would promise a class the engine does not have (java.io, java.net…).
   */
  private checkImport(declaration: Ast.ImportDeclaration): void {
    const { name, pos } = declaration;
    const exceptionPackage = GROOVY_EXCEPTION_CLASS.slice(0, GROOVY_EXCEPTION_CLASS.lastIndexOf('.') + 1);
    if (name === GROOVY_EXCEPTION_CLASS || name === `${exceptionPackage}*`) return;
    if (HARMLESS_PACKAGES.some((root) => name.startsWith(`${root}.`))) return;
    this.error(
      'unsupportedConstruct',
      `import ${name} is not supported: only ${GROOVY_EXCEPTION_CLASS} and classes of ${HARMLESS_PACKAGES.join(', ')} may be imported.`,
      pos,
      `import ${name}`,
    );
  }

  /** `new GroovyException(…)` is the only object an expression may create. */
  private newObject(expr: Ast.NewExpression): Node {
    if (!GROOVY_EXCEPTION_NAMES.includes(expr.className))
      return this.error(
        'unsupportedConstruct',
        `new ${expr.className}(…) is not supported: the only object an expression may create is a GroovyException.`,
        expr.pos,
        `new ${expr.className}`,
      );
    const method = GROOVY_EXCEPTION_CONSTRUCTOR;
    const args = this.exprs(expr.args);
    if (!this.checkArity(method.name, args, method.min, method.max, expr.pos))
      return { k: 'const', value: null, pos: expr.pos };
    return { k: 'static', method, args, pos: expr.pos };
  }

  private sortedErrors(): ExpressionSyntaxError[] {
    const unique = new Map<string, ExpressionSyntaxError>();
    for (const error of this.errors)
      unique.set(`${error.line}:${error.column}:${error.code}:${error.construct ?? ''}`, error);
    return [...unique.values()].sort((a, b) => a.line - b.line || a.column - b.column);
  }

  /** Records a problem and returns a stand-in node so that compiling goes on and finds the others. */
  private error(code: SyntaxErrorCode, message: string, pos: Ast.Position, construct?: string): Node {
    this.errors.push({ code, message, line: pos.line, column: pos.column, construct });
    return { k: 'const', value: null, pos };
  }

  // ---- scopes ----------------------------------------------------------------------------------------------------

  private lookupLocal(name: string): { depth: number; variable: LocalVariable } | null {
    let depth = 0;
    for (let scope: FunctionScope | null = this.scope; scope; scope = scope.parent, depth++) {
      for (let b = scope.blocks.length - 1; b >= 0; b--) {
        const variable = scope.blocks[b].get(name);
        if (variable) return { depth, variable };
      }
    }
    return null;
  }

  private isContextVariable(name: string): name is ContextVariable {
    return (CONTEXT_VARIABLES as readonly string[]).includes(name) && !this.lookupLocal(name);
  }

  /** Whether `name` can only be the start of a qualified Java name (it is no variable). */
  private isQualifiedRoot(name: string): boolean {
    return !this.lookupLocal(name) && !this.isContextVariable(name) && !this.bindingAssignments.has(name);
  }

  private block(statements: readonly Ast.Statement[]): Node[] {
    this.scope.blocks.push(new Map());
    try {
      return this.statements(statements);
    } finally {
      this.scope.blocks.pop();
    }
  }

  private type(ref: Ast.TypeRef): DeclaredType | null {
    const type = resolveType(ref.name, ref.array);
    if (!type) this.error('unknownType', `The type '${ref.name}' is not supported in expressions.`, ref.pos, ref.name);
    return type;
  }

  // ---- statements ------------------------------------------------------------------------------------------------

  private statements(statements: readonly Ast.Statement[]): Node[] {
    const nodes = new Array<Node>(statements.length);
    for (let k = 0; k < statements.length; k++) nodes[k] = this.statement(statements[k]);
    return nodes;
  }

  /** Compiles a list of expressions (a plain loop: compiling often runs cold, when a configuration is checked). */
  private exprs(expressions: readonly Ast.Expression[]): Node[] {
    const nodes = new Array<Node>(expressions.length);
    for (let k = 0; k < expressions.length; k++) nodes[k] = this.expr(expressions[k]);
    return nodes;
  }

  private statement(statement: Ast.Statement): Node {
    switch (statement.kind) {
      case 'expressionStatement':
        return this.expr(statement.expr);
      case 'declaration': {
        const type = statement.type ? this.type(statement.type) : null;
        const init = statement.init ? this.expr(statement.init) : null;
        if (this.lookupLocal(statement.name)) {
          this.error(
            'duplicateVariable',
            `A variable named '${statement.name}' already exists here.`,
            statement.pos,
            statement.name,
          );
        }
        const variable = this.scope.declare(statement.name, type);
        return { k: 'declare', slot: variable.slot, type, init, name: statement.name, pos: statement.pos };
      }
      case 'if':
        return {
          k: 'if',
          condition: this.expr(statement.condition),
          then: this.block(statement.then),
          otherwise: statement.otherwise ? this.block(statement.otherwise) : null,
          pos: statement.pos,
        };
      case 'return':
        return { k: 'return', value: statement.value ? this.expr(statement.value) : null, pos: statement.pos };
      case 'throw':
        return { k: 'throw', value: this.expr(statement.value), pos: statement.pos };
      case 'try':
        return {
          k: 'try',
          body: this.block(statement.body),
          catches: statement.catches.map((c) => this.catchClause(c)),
          pos: statement.pos,
        };
    }
  }

  /** A catch names only exception classes that stand for evaluation errors; its variable lives in its block. */
  private catchClause(clause: Ast.CatchClause): CatchNode {
    const codes = new Set<EvaluationErrorCode>();
    for (const type of clause.types) {
      const caught = type.array ? undefined : caughtCodes(type.name);
      if (!caught)
        this.error('unknownType', `The exception '${type.name}' cannot be caught in expressions.`, type.pos, type.name);
      for (const code of caught ?? []) codes.add(code);
    }
    this.scope.blocks.push(new Map());
    try {
      if (this.lookupLocal(clause.name))
        this.error(
          'duplicateVariable',
          `A variable named '${clause.name}' already exists here.`,
          clause.pos,
          clause.name,
        );
      const variable = this.scope.declare(clause.name, null);
      return { codes, javaType: clause.types[0].name, slot: variable.slot, body: this.statements(clause.body) };
    } finally {
      this.scope.blocks.pop();
    }
  }

  // ---- expressions -----------------------------------------------------------------------------------------------

  private expr(expr: Ast.Expression): Node {
    const pos = expr.pos;
    switch (expr.kind) {
      case 'new':
        return this.newObject(expr);
      case 'literal':
        return this.literal(expr.value, pos);
      case 'gstring':
        return { k: 'gstring', strings: expr.strings, parts: this.exprs(expr.values), pos };
      case 'list':
        return { k: 'list', items: this.exprs(expr.items), pos };
      case 'map':
        return {
          k: 'map',
          entries: expr.entries.map((entry) => ({
            key: entry.key.kind === 'constant' ? this.literal(entry.key.value, entry.pos) : this.expr(entry.key.expr),
            value: this.expr(entry.value),
          })),
          pos,
        };
      case 'identifier':
        return this.identifier(expr.name, pos, false);
      case 'property':
        return this.property(expr);
      case 'index':
        return this.index(expr);
      case 'methodCall':
        return this.methodCall(expr);
      case 'call':
        return this.call(expr);
      case 'closure':
        return this.closure(expr);
      case 'unary':
        return { k: 'unary', op: expr.op, operand: this.expr(expr.operand), pos };
      case 'binary':
        if (expr.op === '&&' || expr.op === '||') {
          return { k: expr.op === '&&' ? 'and' : 'or', left: this.expr(expr.left), right: this.expr(expr.right), pos };
        }
        if (expr.op === '==~' || expr.op === '=~') this.checkRegexLiteral(expr.right);
        return { k: 'binary', op: expr.op, left: this.expr(expr.left), right: this.expr(expr.right), pos };
      case 'ternary':
        return {
          k: 'ternary',
          condition: this.expr(expr.condition),
          whenTrue: this.expr(expr.whenTrue),
          whenFalse: this.expr(expr.whenFalse),
          pos,
        };
      case 'elvis':
        return { k: 'elvis', value: this.expr(expr.value), fallback: this.expr(expr.fallback), pos };
      case 'cast': {
        const type = this.type(expr.type);
        const operand = this.expr(expr.expr);
        return type ? { k: 'cast', type, style: expr.style, expr: operand, pos } : operand;
      }
      case 'instanceof': {
        const type = this.type(expr.type);
        const operand = this.expr(expr.expr);
        return type ? { k: 'instanceof', type: type.name, negated: expr.negated, expr: operand, pos } : operand;
      }
      case 'assign':
        return this.assignment(expr);
      case 'paren':
        return this.expr(expr.expr);
    }
  }

  private literal(value: Ast.LiteralValue, pos: Ast.Position): Node {
    try {
      return { k: 'const', value: literalToValue(value), pos };
    } catch (error) {
      if (!(error instanceof ExpressionError)) throw error;
      return this.error('malformedNumber', error.message, pos, value.type === 'number' ? value.text : undefined);
    }
  }

  private identifier(name: string, pos: Ast.Position, asFunction: boolean): Node {
    const local = this.lookupLocal(name);
    if (local) return { k: 'local', depth: local.depth, slot: local.variable.slot, name, pos };
    if (this.isContextVariable(name)) {
      if (name === 'references' || name === 'referencesValues') this.referenceContextReads += 1;
      return { k: 'context', name, pos };
    }
    if (isHelperName(name)) return this.error('unsupportedConstruct', `${name} must be called: ${name}(…).`, pos, name);
    if (UNSUPPORTED_HELPERS.has(name))
      return this.error('unsupportedConstruct', `${name} is not supported.`, pos, name);
    if (isStaticClass(name))
      return this.error('unsupportedConstruct', `The class ${name} cannot be used as a value.`, pos, name);
    if (name === 'it') return this.error('unknownVariable', "'it' exists only inside a closure.", pos, name);
    this.bindingReads.push({ name, pos, asFunction });
    return { k: 'binding', name, pos };
  }

  /** `a.b.c` as a list of names when it is nothing but names, else null. */
  private qualifiedPath(expr: Ast.Expression): string[] | null {
    if (expr.kind === 'identifier') return [expr.name];
    if (expr.kind === 'property' && typeof expr.name === 'string' && !expr.safe && !expr.spread) {
      const base = this.qualifiedPath(expr.object);
      return base ? [...base, expr.name] : null;
    }
    return null;
  }

  /**
   * Resolves a qualified name (`java.util.Locale.FRENCH`, `Math`) against the allowed classes: a class, a
   * constant (with any properties read after it), or nothing.
   */
  private qualified(
    path: readonly string[],
    pos: Ast.Position,
  ): { kind: 'class'; name: string } | { kind: 'value'; node: Node } | null {
    for (let k = path.length; k >= 1; k--) {
      const className = path.slice(0, k).join('.');
      if (!isStaticClass(className)) continue;
      if (k === path.length) return { kind: 'class', name: className };
      const member = resolveStaticMember(className, path[k]);
      if (!member || member.kind !== 'constant') {
        return {
          kind: 'value',
          node: this.error(
            'unknownStaticCall',
            `${className}.${path[k]} is not allowed in expressions.`,
            pos,
            `${className}.${path[k]}`,
          ),
        };
      }
      let node: Node = { k: 'const', value: member.value, pos };
      for (const name of path.slice(k + 1))
        node = { k: 'property', object: node, name, safe: false, spread: false, pos };
      return { kind: 'value', node };
    }
    return null;
  }

  private looksLikeClass(path: readonly string[]): boolean {
    const root = path[0];
    if (isHelperName(root) || UNSUPPORTED_HELPERS.has(root)) return false;
    return PACKAGE_ROOTS.has(root) || isCapitalized(root);
  }

  private recordReference(object: Ast.Expression, name: string | null): void {
    const inner = unwrap(object);
    if (name === null || inner.kind !== 'identifier') return;
    if ((inner.name === 'references' || inner.name === 'referencesValues') && this.isContextVariable(inner.name)) {
      this.namedReferenceReads += 1;
      if (!this.references.includes(name)) this.references.push(name);
    }
  }

  private property(expr: Ast.PropertyExpression): Node {
    const pos = expr.pos;
    if (typeof expr.name === 'string' && FORBIDDEN_PROPERTIES.has(expr.name)) {
      return this.error('forbiddenName', `'${expr.name}' is not available in expressions.`, pos, expr.name);
    }
    const path = this.qualifiedPath(expr);
    if (path && this.isQualifiedRoot(path[0])) {
      const resolved = this.qualified(path, pos);
      if (resolved?.kind === 'value') return resolved.node;
      if (resolved?.kind === 'class')
        return this.error(
          'unsupportedConstruct',
          `The class ${resolved.name} cannot be used as a value.`,
          pos,
          resolved.name,
        );
      if (this.looksLikeClass(path)) {
        const name = path.join('.');
        return this.error('unknownStaticCall', `${name} is not allowed in expressions.`, pos, name);
      }
    }
    this.recordReference(expr.object, typeof expr.name === 'string' ? expr.name : null);
    const object = this.expr(expr.object);
    if (typeof expr.name !== 'string') {
      return { k: 'dynamicProperty', object, name: this.expr(expr.name), safe: expr.safe, spread: expr.spread, pos };
    }
    return { k: 'property', object, name: expr.name, safe: expr.safe, spread: expr.spread, pos };
  }

  private index(expr: Ast.IndexExpression): Node {
    this.recordReference(expr.object, stringLiteral(expr.index));
    return { k: 'index', object: this.expr(expr.object), index: this.expr(expr.index), pos: expr.pos };
  }

  private checkArity(name: string, args: readonly unknown[], min: number, max: number, pos: Ast.Position): boolean {
    if (args.length >= min && args.length <= max) return true;
    const expected = min === max ? `${min}` : `${min} to ${max}`;
    this.error('badArguments', `${name}() takes ${expected} argument(s), not ${args.length}.`, pos, name);
    return false;
  }

  private checkRegexLiteral(pattern: Ast.Expression): void {
    const text = stringLiteral(pattern);
    if (text === null) return;
    try {
      compileRegex(text);
    } catch (error) {
      if (!(error instanceof ExpressionError)) throw error;
      this.error('invalidRegex', error.message, pattern.pos, text);
    }
  }

  private methodCall(expr: Ast.MethodCallExpression): Node {
    const pos = expr.pos;
    let object: Node | null = null;
    const path = this.qualifiedPath(expr.object);
    if (path && this.isQualifiedRoot(path[0])) {
      const resolved = this.qualified(path, pos);
      if (resolved?.kind === 'class') {
        const member = resolveStaticMember(resolved.name, expr.name);
        const name = `${resolved.name}.${expr.name}`;
        if (!member || member.kind !== 'method')
          return this.error('unknownStaticCall', `${name}() is not allowed in expressions.`, pos, name);
        const args = this.exprs(expr.args);
        if (!this.checkArity(name, args, member.method.min, member.method.max, pos))
          return { k: 'const', value: null, pos };
        return { k: 'static', method: member.method, args, pos };
      }
      if (resolved?.kind === 'value') object = resolved.node;
      else if (this.looksLikeClass(path)) {
        const name = `${path.join('.')}.${expr.name}`;
        return this.error('unknownStaticCall', `${name}() is not allowed in expressions.`, pos, name);
      }
    }
    const receiver = object ?? this.expr(expr.object);
    if (FORBIDDEN_METHODS.has(expr.name))
      return this.error('forbiddenName', `'${expr.name}' is not available in expressions.`, pos, expr.name);
    if (!METHOD_NAMES.has(expr.name) && getterProperty(expr.name) === null && !RECORD_ACCESSORS.has(expr.name)) {
      return this.error('unknownMethod', `The method ${expr.name}() is not available in expressions.`, pos, expr.name);
    }
    if (expr.name === 'get' && expr.args.length === 1) this.recordReference(expr.object, stringLiteral(expr.args[0]));
    if (REGEX_METHODS.has(expr.name) && expr.args.length > 0) this.checkRegexLiteral(expr.args[0]);
    return (
      this.indexedLookup(expr, receiver) ?? {
        k: 'method',
        object: receiver,
        name: expr.name,
        args: this.exprs(expr.args),
        safe: expr.safe,
        spread: expr.spread,
        pos,
      }
    );
  }

  private call(expr: Ast.CallExpression): Node {
    const pos = expr.pos;
    const callee = unwrap(expr.callee);
    if (callee.kind === 'identifier' && !this.lookupLocal(callee.name)) {
      const name = callee.name;
      if (isHelperName(name)) {
        const args = this.exprs(expr.args);
        const helper = HELPERS[name];
        if (!this.checkArity(name, args, helper.min, helper.max, pos)) return { k: 'const', value: null, pos };
        return { k: 'helper', helper: name, args, pos };
      }
      if (UNSUPPORTED_HELPERS.has(name))
        return this.error('unsupportedConstruct', `${name} is not supported.`, pos, name);
      if (FORBIDDEN_METHODS.has(name))
        return this.error('forbiddenName', `'${name}' is not available in expressions.`, pos, name);
      return { k: 'callValue', callee: this.identifier(name, callee.pos, true), args: this.exprs(expr.args), pos };
    }
    return { k: 'callValue', callee: this.expr(expr.callee), args: this.exprs(expr.args), pos };
  }

  private closure(expr: Ast.ClosureExpression): ClosureNode {
    const outer = this.scope;
    this.scope = new FunctionScope(outer);
    try {
      const params: { slot: number; type: DeclaredType | null; name: string }[] = [];
      if (expr.params === null) params.push({ slot: this.scope.declare('it', null).slot, type: null, name: 'it' });
      else {
        for (const param of expr.params) {
          if (param.name !== 'it' && this.lookupLocal(param.name)) {
            this.error(
              'duplicateVariable',
              `A variable named '${param.name}' already exists here.`,
              param.pos,
              param.name,
            );
          }
          const type = param.type ? this.type(param.type) : null;
          params.push({ slot: this.scope.declare(param.name, type).slot, type, name: param.name });
        }
      }
      const body = this.statements(expr.body);
      return {
        k: 'closure',
        params,
        implicitIt: expr.params === null,
        frameSize: this.scope.slotCount,
        body,
        pos: expr.pos,
      };
    } finally {
      this.scope = outer;
    }
  }

  private assignment(expr: Ast.AssignmentExpression): Node {
    const pos = expr.pos;
    const target = unwrap(expr.target);
    if (target.kind !== 'identifier') {
      const construct =
        target.kind === 'property'
          ? 'property assignment'
          : target.kind === 'index'
            ? 'index assignment'
            : 'assignment';
      return this.error(
        'invalidAssignment',
        `Only variables can be assigned (${construct} is not supported).`,
        pos,
        construct,
      );
    }
    const name = target.name;
    const value = this.expr(expr.value);
    const operator = expr.op === '=' ? null : (expr.op[0] as '+' | '-' | '*' | '/' | '%');
    const local = this.lookupLocal(name);
    if (local) {
      return {
        k: 'assign',
        target: { kind: 'local', depth: local.depth, slot: local.variable.slot },
        name,
        operator,
        type: local.variable.type,
        value,
        pos,
      };
    }
    if (this.isContextVariable(name) || isHelperName(name) || isStaticClass(name) || name === 'it') {
      return this.error('invalidAssignment', `'${name}' cannot be assigned.`, pos, name);
    }
    this.bindingAssignments.add(name);
    return { k: 'assign', target: { kind: 'binding' }, name, operator, type: null, value, pos };
  }

  // ---- indexed look-ups ------------------------------------------------------------------------------------------

  /** `list.find { it.f == key }` (or `findAll`, or with `.equals`) compiled to an index look-up, else null. */
  private indexedLookup(expr: Ast.MethodCallExpression, receiver: Node): Node | null {
    if (!this.indexedLookups || (expr.name !== 'find' && expr.name !== 'findAll')) return null;
    if (expr.safe || expr.spread || expr.args.length !== 1 || expr.args[0].kind !== 'closure') return null;
    const closure = expr.args[0];
    const param =
      closure.params === null
        ? 'it'
        : closure.params.length === 1 && !closure.params[0].type
          ? closure.params[0].name
          : null;
    if (param === null || closure.body.length !== 1) return null;
    const statement = closure.body[0];
    const body =
      statement.kind === 'expressionStatement' ? statement.expr : statement.kind === 'return' ? statement.value : null;
    if (!body) return null;
    const comparison = unwrap(body);
    let sides: [Ast.Expression, Ast.Expression] | null = null;
    let equality: 'groovy' | 'java' = 'groovy';
    if (comparison.kind === 'binary' && comparison.op === '==') sides = [comparison.left, comparison.right];
    else if (
      comparison.kind === 'methodCall' &&
      comparison.name === 'equals' &&
      comparison.args.length === 1 &&
      !comparison.safe &&
      !comparison.spread
    ) {
      sides = [comparison.object, comparison.args[0]];
      equality = 'java';
    }
    if (!sides) return null;
    for (const [field, key] of [sides, [sides[1], sides[0]]] as const) {
      const path = fieldPath(field, param);
      if (path === null || !isInvariant(key, param)) continue;
      const plan: LookupPlan = { path, equality, signature: planSignature(path, equality) };
      return {
        k: 'indexedLookup',
        method: expr.name,
        receiver,
        plan,
        key: this.expr(key),
        closure: this.closure(closure),
        pos: expr.pos,
      };
    }
    return null;
  }
}

/** The steps from the closure parameter to a field, when `expr` is only such a path. */
function fieldPath(expr: Ast.Expression, param: string): PathStep[] | null {
  const e = unwrap(expr);
  switch (e.kind) {
    case 'identifier':
      return e.name === param ? [] : null;
    case 'property': {
      if (typeof e.name !== 'string' || e.spread) return null;
      const base = fieldPath(e.object, param);
      return base && [...base, { kind: 'property', name: e.name, safe: e.safe }];
    }
    case 'methodCall': {
      if (e.spread) return null;
      const base = fieldPath(e.object, param);
      if (!base) return null;
      if (e.args.length === 0 && getterProperty(e.name) !== null)
        return [...base, { kind: 'method', name: e.name, args: [], safe: e.safe }];
      const key = e.name === 'get' && e.args.length === 1 ? stringLiteral(e.args[0]) : null;
      return key === null ? null : [...base, { kind: 'method', name: 'get', args: [key], safe: e.safe }];
    }
    case 'index': {
      const base = fieldPath(e.object, param);
      const key = stringLiteral(e.index);
      return base && key !== null ? [...base, { kind: 'index', key }] : null;
    }
    default:
      return null;
  }
}

/** Whether an expression gives the same value for every element: it never reads the parameter and has no effects. */
function isInvariant(expr: Ast.Expression, param: string): boolean {
  const all = (items: readonly Ast.Expression[]) => items.every((item) => isInvariant(item, param));
  switch (expr.kind) {
    case 'literal':
      return true;
    case 'identifier':
      return expr.name !== param;
    case 'gstring':
      return all(expr.values);
    case 'list':
      return all(expr.items);
    case 'map':
      return expr.entries.every(
        (entry) =>
          isInvariant(entry.value, param) && (entry.key.kind === 'constant' || isInvariant(entry.key.expr, param)),
      );
    case 'property':
      return isInvariant(expr.object, param) && (typeof expr.name === 'string' || isInvariant(expr.name, param));
    case 'index':
      return isInvariant(expr.object, param) && isInvariant(expr.index, param);
    case 'methodCall':
      return expr.name !== 'call' && isInvariant(expr.object, param) && all(expr.args);
    case 'unary':
      return isInvariant(expr.operand, param);
    case 'binary':
      return isInvariant(expr.left, param) && isInvariant(expr.right, param);
    case 'ternary':
      return all([expr.condition, expr.whenTrue, expr.whenFalse]);
    case 'elvis':
      return isInvariant(expr.value, param) && isInvariant(expr.fallback, param);
    case 'cast':
    case 'instanceof':
    case 'paren':
      return isInvariant(expr.expr, param);
    default:
      return false;
  }
}

export function compileProgram(
  program: Ast.Program,
  options: CompileOptions = {},
): CompiledScript | ExpressionSyntaxError[] {
  return new Compiler(options.indexedLookups ?? true, options.unknownNames ?? 'refuse').compile(program);
}
