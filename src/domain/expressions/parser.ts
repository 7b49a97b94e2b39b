/**
 * Recursive-descent parser for the Groovy subset (precedence climbing for binary operators). It stops at the first
 * syntax error, and refuses by name the Groovy constructs the subset leaves out (loops, `new`, classes, …) so that an
 * author learns what to rewrite rather than reading "unexpected token".
 */
import type {
  AssignmentOperator,
  BinaryOperator,
  CatchClause,
  ClosureExpression,
  Expression,
  ImportDeclaration,
  MapEntryExpression,
  Parameter,
  Position,
  Program,
  Statement,
  TypeRef,
} from './ast';
import { isCapitalized } from './characters';
import { syntaxFailure } from './errors';
import type { Token } from './lexer';
import { MAX_NESTING } from './limits';

const REFUSED_KEYWORDS: Record<string, string> = {
  while: 'while loop',
  for: 'for loop',
  do: 'do-while loop',
  switch: 'switch statement',
  finally: 'finally',
  break: 'break',
  continue: 'continue',
  class: 'class declaration',
  interface: 'interface declaration',
  enum: 'enum declaration',
  trait: 'trait declaration',
  record: 'record declaration',
  import: 'import',
  package: 'package declaration',
  synchronized: 'synchronized block',
  assert: 'assert',
  goto: 'goto',
  static: 'static declaration',
  abstract: 'method or class declaration',
  public: 'method or class declaration',
  private: 'method or class declaration',
  protected: 'method or class declaration',
  native: 'method or class declaration',
  transient: 'field declaration',
  volatile: 'field declaration',
  strictfp: 'method or class declaration',
  threadsafe: 'method or class declaration',
  const: 'const declaration',
  yield: 'yield',
  new: 'object creation (new)',
};

interface BinaryRule {
  readonly precedence: number;
  /** Whether the operator may start a continuation line (Groovy's `nls` before the operator). */
  readonly afterNewline: boolean;
  /** When set, the operator is Groovy but outside the subset. */
  readonly refused?: string;
}

const BINARY_RULES: Record<string, BinaryRule> = {
  '||': { precedence: 1, afterNewline: true },
  '&&': { precedence: 2, afterNewline: true },
  '|': { precedence: 3, afterNewline: true, refused: 'bitwise operator' },
  '^': { precedence: 4, afterNewline: true, refused: 'bitwise operator' },
  '&': { precedence: 5, afterNewline: true, refused: 'bitwise operator' },
  '=~': { precedence: 6, afterNewline: true },
  '==~': { precedence: 6, afterNewline: true },
  '==': { precedence: 7, afterNewline: true },
  '!=': { precedence: 7, afterNewline: true },
  '<=>': { precedence: 7, afterNewline: true },
  '===': { precedence: 7, afterNewline: true, refused: 'identity comparison (===)' },
  '!==': { precedence: 7, afterNewline: true, refused: 'identity comparison (!==)' },
  '<': { precedence: 8, afterNewline: true },
  '<=': { precedence: 8, afterNewline: true },
  '>': { precedence: 8, afterNewline: true },
  '>=': { precedence: 8, afterNewline: true },
  in: { precedence: 8, afterNewline: true },
  '!in': { precedence: 8, afterNewline: true },
  instanceof: { precedence: 8, afterNewline: true },
  '!instanceof': { precedence: 8, afterNewline: true },
  as: { precedence: 8, afterNewline: true },
  '<<': { precedence: 9, afterNewline: true, refused: 'shift or append operator (<<)' },
  '>>': { precedence: 9, afterNewline: true, refused: 'shift operator' },
  '>>>': { precedence: 9, afterNewline: true, refused: 'shift operator' },
  '..': { precedence: 9, afterNewline: true, refused: 'range' },
  '..<': { precedence: 9, afterNewline: true, refused: 'range' },
  '+': { precedence: 10, afterNewline: false },
  '-': { precedence: 10, afterNewline: false },
  '*': { precedence: 11, afterNewline: true },
  '/': { precedence: 11, afterNewline: true },
  '%': { precedence: 11, afterNewline: true },
};

const ASSIGNMENT_OPERATORS = new Set(['=', '+=', '-=', '*=', '/=', '%=']);
const MEMBER_OPERATORS = new Set(['.', '?.', '*.']);
const PRIMITIVE_TYPES = new Set(['int', 'long', 'short', 'byte', 'float', 'double', 'boolean', 'char']);

function isOperator(token: Token, text: string): boolean {
  return token.kind === 'operator' && token.text === text;
}

function describe(token: Token): string {
  if (token.kind === 'eof') return 'the end of the expression';
  if (token.kind === 'newline') return 'a line break';
  return `'${token.text}'`;
}

class Parser {
  private index = 0;
  private depth: number;

  constructor(
    private readonly tokens: readonly Token[],
    depth: number,
  ) {
    this.depth = depth;
  }

  // ---- token helpers -------------------------------------------------------------------------------------------

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)];
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'eof') this.index++;
    return token;
  }

  private at(text: string): boolean {
    return isOperator(this.peek(), text);
  }

  private atKeyword(text: string): boolean {
    const token = this.peek();
    return token.kind === 'keyword' && token.text === text;
  }

  private expect(text: string): Token {
    const token = this.peek();
    if (!isOperator(token, text)) this.unexpected(token, `'${text}'`);
    return this.next();
  }

  private skipNewlines(): void {
    while (this.peek().kind === 'newline') this.index++;
  }

  /** Index of the first token at or after the cursor that is not a line break. */
  private indexPastNewlines(): number {
    let k = this.index;
    while (this.tokens[k].kind === 'newline') k++;
    return k;
  }

  private unexpected(token: Token, expected?: string): never {
    const code = token.kind === 'eof' ? 'unexpectedEnd' : 'unexpectedToken';
    const message = expected
      ? `Expected ${expected} but found ${describe(token)}.`
      : token.kind === 'eof'
        ? 'The expression ends too early.'
        : `Unexpected ${describe(token)}.`;
    throw syntaxFailure(
      code,
      message,
      token.pos,
      token.kind === 'eof' || token.kind === 'newline' ? undefined : token.text,
    );
  }

  private refuse(token: Token, construct: string): never {
    throw syntaxFailure('unsupportedConstruct', `${construct} is not supported in expressions.`, token.pos, construct);
  }

  /** Counts one level of nesting; every recursive path goes through here so the JavaScript stack stays bounded. */
  private enter(token: Token): void {
    if (++this.depth > MAX_NESTING) {
      throw syntaxFailure('nestingTooDeep', `The expression nests deeper than ${MAX_NESTING} levels.`, token.pos);
    }
  }

  private leave(levels = 1): void {
    this.depth -= levels;
  }

  // ---- statements ----------------------------------------------------------------------------------------------

  parseProgram(): Program {
    const imports: ImportDeclaration[] = [];
    for (;;) {
      while (this.peek().kind === 'newline' || this.at(';')) this.index++;
      if (!this.atKeyword('import')) break;
      imports.push(this.parseImport());
    }
    const statements = this.parseStatements(false);
    return { imports, statements };
  }

  /** `import a.b.C`, `import a.b.*` (the compiler decides which names are accepted). */
  private parseImport(): ImportDeclaration {
    const start = this.next();
    if (this.atKeyword('static')) this.refuse(this.peek(), 'static import');
    const parts = [this.qualifiedNamePart()];
    while (this.at('.')) {
      this.next();
      if (this.at('*')) {
        this.next();
        parts.push('*');
        break;
      }
      parts.push(this.qualifiedNamePart());
    }
    if (this.atKeyword('as')) this.refuse(this.peek(), 'import alias');
    return { name: parts.join('.'), pos: start.pos };
  }

  private qualifiedNamePart(): string {
    const token = this.peek();
    if (token.kind !== 'identifier') this.unexpected(token, 'a name');
    this.next();
    return token.text;
  }

  /** `new a.b.C(args)`, with the keyword already read. */
  private parseNew(start: Token): Expression {
    const parts = [this.qualifiedNamePart()];
    while (this.at('.')) {
      this.next();
      parts.push(this.qualifiedNamePart());
    }
    if (!this.at('(')) this.unexpected(this.peek(), "'('");
    return { kind: 'new', className: parts.join('.'), args: this.parseArguments(), pos: start.pos };
  }

  /** Statements up to the end of the text, or up to (not including) the `}` that closes a block. */
  private parseStatements(untilBrace: boolean): Statement[] {
    const statements: Statement[] = [];
    for (;;) {
      while (this.peek().kind === 'newline' || this.at(';')) this.index++;
      const token = this.peek();
      if (untilBrace && isOperator(token, '}')) return statements;
      if (token.kind === 'eof') {
        if (untilBrace) this.unexpected(token, "'}'");
        return statements;
      }
      statements.push(this.parseStatement());
      const after = this.peek();
      const ends =
        after.kind === 'newline' ||
        after.kind === 'eof' ||
        isOperator(after, ';') ||
        (untilBrace && isOperator(after, '}'));
      if (!ends) this.unexpected(after);
    }
  }

  private parseStatement(): Statement {
    const token = this.peek();
    this.enter(token);
    try {
      if (token.kind === 'keyword') {
        switch (token.text) {
          case 'if':
            return this.parseIf();
          case 'return': {
            this.next();
            const value = this.startsExpression(this.peek()) ? this.parseExpression() : null;
            return { kind: 'return', value, pos: token.pos };
          }
          case 'throw':
            this.next();
            return { kind: 'throw', value: this.parseExpression(), pos: token.pos };
          case 'try':
            return this.parseTry();
          case 'def':
          case 'var':
          case 'final':
            return this.parseDeclaration();
        }
        if (token.text === 'import') this.refuse(token, 'import after the first statement');
        const refused = REFUSED_KEYWORDS[token.text];
        if (refused && token.text !== 'new') this.refuse(token, refused);
      }
      if (isOperator(token, '{')) this.refuse(token, 'code block outside if/else');
      const declaration = this.tryTypedDeclaration();
      if (declaration) return declaration;
      return { kind: 'expressionStatement', expr: this.parseExpression(), pos: token.pos };
    } finally {
      this.leave();
    }
  }

  private startsExpression(token: Token): boolean {
    return token.kind !== 'newline' && token.kind !== 'eof' && !isOperator(token, ';') && !isOperator(token, '}');
  }

  private parseIf(): Statement {
    const start = this.next();
    this.expect('(');
    const condition = this.parseExpression();
    this.expect(')');
    const then = this.parseBody();
    const save = this.index;
    while (this.peek().kind === 'newline' || this.at(';')) this.index++;
    if (this.atKeyword('else')) {
      const elseToken = this.next();
      this.skipNewlines();
      if (this.atKeyword('if')) {
        this.enter(elseToken);
        try {
          return { kind: 'if', condition, then, otherwise: [this.parseIf()], pos: start.pos };
        } finally {
          this.leave();
        }
      }
      return { kind: 'if', condition, then, otherwise: this.parseBody(), pos: start.pos };
    }
    this.index = save;
    return { kind: 'if', condition, then, otherwise: null, pos: start.pos };
  }

  /** `try { … } catch (Type e) { … }`, one catch or more; `finally` is refused. */
  private parseTry(): Statement {
    const start = this.next();
    const body = this.parseBlock();
    const catches: CatchClause[] = [];
    for (;;) {
      const save = this.index;
      this.skipNewlines();
      if (!this.atKeyword('catch')) {
        this.index = save;
        break;
      }
      const catchToken = this.next();
      this.expect('(');
      // `catch (e)` without a class catches Exception, as in Groovy.
      const untyped = this.peek().kind === 'identifier' && isOperator(this.peek(1), ')');
      const types = [untyped ? { name: 'Exception', array: false, pos: this.peek().pos } : this.parseType()];
      while (this.at('|')) {
        this.next();
        types.push(this.parseType());
      }
      const nameToken = this.peek();
      if (nameToken.kind !== 'identifier') this.unexpected(nameToken, 'a variable name');
      this.next();
      this.expect(')');
      catches.push({ types, name: nameToken.text, body: this.parseBlock(), pos: catchToken.pos });
    }
    const after = this.tokens[this.indexPastNewlines()];
    if (after.kind === 'keyword' && after.text === 'finally') this.refuse(after, 'finally');
    if (catches.length === 0) this.unexpected(this.peek(), "'catch'");
    return { kind: 'try', body, catches, pos: start.pos };
  }

  /** A `{ … }` block, as try and catch want it. */
  private parseBlock(): Statement[] {
    this.skipNewlines();
    this.expect('{');
    const statements = this.parseStatements(true);
    this.expect('}');
    return statements;
  }

  /** The body of an if/else: a `{ … }` block or one statement. */
  private parseBody(): Statement[] {
    this.skipNewlines();
    if (this.at('{')) {
      this.next();
      const statements = this.parseStatements(true);
      this.expect('}');
      return statements;
    }
    return [this.parseStatement()];
  }

  /** `def x = …`, `var x`, `final String x = …`, `final x = …` (with the keyword under the cursor). */
  private parseDeclaration(): Statement {
    const first = this.next();
    let type: TypeRef | null = null;
    if (first.text === 'final') {
      if (this.atKeyword('def') || this.atKeyword('var')) this.next();
      else {
        const end = this.scanType(this.index);
        if (end !== -1 && this.tokens[end]?.kind === 'identifier') type = this.parseType();
      }
    }
    if (this.at('(')) this.refuse(this.peek(), 'multiple assignment');
    return this.finishDeclaration(type, first.pos);
  }

  private finishDeclaration(type: TypeRef | null, pos: Position): Statement {
    const nameToken = this.peek();
    if (nameToken.kind !== 'identifier') this.unexpected(nameToken, 'a variable name');
    this.next();
    let init: Expression | null = null;
    if (this.at('=')) {
      this.next();
      this.skipNewlines();
      init = this.parseExpression();
    }
    if (this.at(',')) this.refuse(this.peek(), 'several variables in one declaration');
    return { kind: 'declaration', type, name: nameToken.text, init, pos };
  }

  /** `String x = …` or `List<String> xs`: a type, a name, then `=` or the end of the statement. */
  private tryTypedDeclaration(): Statement | null {
    const first = this.peek();
    if (first.kind !== 'identifier') return null;
    const looksLikeType = isCapitalized(first.text) || PRIMITIVE_TYPES.has(first.text) || isOperator(this.peek(1), '.');
    if (!looksLikeType) return null;
    const afterType = this.scanType(this.index);
    if (afterType === -1) return null;
    const name = this.tokens[afterType];
    const following = this.tokens[afterType + 1];
    if (name?.kind !== 'identifier' || !following) return null;
    const ends =
      following.kind === 'newline' ||
      following.kind === 'eof' ||
      isOperator(following, '=') ||
      isOperator(following, ';') ||
      isOperator(following, '}');
    if (!ends) return null;
    const type = this.parseType();
    return this.finishDeclaration(type, first.pos);
  }

  // ---- types ---------------------------------------------------------------------------------------------------

  /** Index just after a type starting at `from` (qualified name, generic arguments, `[]`), or -1. */
  private scanType(from: number): number {
    let k = from;
    if (this.tokens[k]?.kind !== 'identifier') return -1;
    k++;
    while (isOperator(this.tokens[k], '.') && this.tokens[k + 1]?.kind === 'identifier') k += 2;
    if (isOperator(this.tokens[k], '<')) {
      let angle = 0;
      for (; k < this.tokens.length; k++) {
        const token = this.tokens[k];
        if (token.kind === 'operator') {
          if (token.text === '<') angle++;
          else if (token.text === '>') angle--;
          else if (token.text === '>>') angle -= 2;
          else if (token.text === '>>>') angle -= 3;
          else if (token.text !== '.' && token.text !== ',' && token.text !== '?') return -1;
        } else if (
          token.kind !== 'identifier' &&
          !(token.kind === 'keyword' && (token.text === 'extends' || token.text === 'super'))
        ) {
          return -1;
        }
        if (angle === 0) break;
        if (angle < 0) return -1;
      }
      if (angle !== 0) return -1;
      k++;
    }
    while (isOperator(this.tokens[k], '[') && isOperator(this.tokens[k + 1], ']')) k += 2;
    return k;
  }

  private parseType(): TypeRef {
    const start = this.peek();
    const end = this.scanType(this.index);
    if (end === -1) this.unexpected(start, 'a type');
    let name = '';
    let array = false;
    let inGenerics = false;
    for (; this.index < end; this.index++) {
      const token = this.tokens[this.index];
      if (isOperator(token, '<')) inGenerics = true;
      if (isOperator(token, '[')) array = true;
      if (!inGenerics && !array) name += token.text;
    }
    return { name, array, pos: start.pos };
  }

  // ---- expressions ---------------------------------------------------------------------------------------------

  parseExpression(): Expression {
    const token = this.peek();
    this.enter(token);
    try {
      const target = this.parseTernary();
      const op = this.peek();
      if (op.kind === 'operator' && op.text === '**=') this.refuse(op, 'power assignment (**=)');
      if (op.kind === 'operator' && ASSIGNMENT_OPERATORS.has(op.text)) {
        this.next();
        this.skipNewlines();
        const value = this.parseExpression();
        return { kind: 'assign', target, op: op.text as AssignmentOperator, value, pos: op.pos };
      }
      return target;
    } finally {
      this.leave();
    }
  }

  private parseTernary(): Expression {
    const condition = this.parseBinary(1);
    const k = this.indexPastNewlines();
    const token = this.tokens[k];
    if (!isOperator(token, '?') && !isOperator(token, '?:')) return condition;
    this.index = k + 1;
    this.enter(token);
    try {
      this.skipNewlines();
      if (token.text === '?:') {
        return { kind: 'elvis', value: condition, fallback: this.parseTernary(), pos: token.pos };
      }
      const whenTrue = this.parseTernary();
      this.skipNewlines();
      this.expect(':');
      this.skipNewlines();
      const whenFalse = this.parseTernary();
      return { kind: 'ternary', condition, whenTrue, whenFalse, pos: token.pos };
    } finally {
      this.leave();
    }
  }

  /** The binary operator at `k` (and how many tokens it spans), e.g. `!` + `in` is `!in`. */
  private binaryOperatorAt(k: number): { text: string; width: number } | null {
    const token = this.tokens[k];
    if (token.kind === 'keyword' && (token.text === 'in' || token.text === 'instanceof' || token.text === 'as')) {
      return { text: token.text, width: 1 };
    }
    if (token.kind !== 'operator') return null;
    if (token.text === '!') {
      const following = this.tokens[k + 1];
      if (following?.kind === 'keyword' && (following.text === 'in' || following.text === 'instanceof')) {
        return { text: '!' + following.text, width: 2 };
      }
      return null;
    }
    return token.text in BINARY_RULES ? { text: token.text, width: 1 } : null;
  }

  private parseBinary(minPrecedence: number): Expression {
    let left = this.parseUnary();
    let chained = 0;
    try {
      for (;;) {
        let k = this.index;
        let op = this.binaryOperatorAt(k);
        if (!op && this.peek().kind === 'newline') {
          k = this.indexPastNewlines();
          op = this.binaryOperatorAt(k);
          if (op && !BINARY_RULES[op.text].afterNewline) op = null;
        }
        if (!op) return left;
        const rule = BINARY_RULES[op.text];
        if (rule.precedence < minPrecedence) return left;
        const token = this.tokens[k];
        if (rule.refused) this.refuse(token, rule.refused);
        this.index = k + op.width;
        this.enter(token);
        chained++;
        this.skipNewlines();
        if (op.text === 'as') {
          left = { kind: 'cast', type: this.parseType(), expr: left, style: 'as', pos: token.pos };
        } else if (op.text === 'instanceof' || op.text === '!instanceof') {
          left = {
            kind: 'instanceof',
            expr: left,
            type: this.parseType(),
            negated: op.text !== 'instanceof',
            pos: token.pos,
          };
        } else {
          const right = this.parseBinary(rule.precedence + 1);
          left = { kind: 'binary', op: op.text as BinaryOperator, left, right, pos: token.pos };
        }
      }
    } finally {
      this.leave(chained);
    }
  }

  /** Unary `+`/`-` bind looser than `**`: `-2 ** 2` is -4, as in Groovy. */
  private parseUnary(): Expression {
    const token = this.peek();
    if (isOperator(token, '++') || isOperator(token, '--')) this.refuse(token, 'increment or decrement operator');
    if (isOperator(token, '-') || isOperator(token, '+')) {
      this.next();
      this.enter(token);
      try {
        return { kind: 'unary', op: token.text as '-' | '+', operand: this.parseUnary(), pos: token.pos };
      } finally {
        this.leave();
      }
    }
    return this.parsePower();
  }

  private parsePower(): Expression {
    let left = this.parseNot();
    let chained = 0;
    try {
      while (this.at('**')) {
        const token = this.next();
        this.enter(token);
        chained++;
        this.skipNewlines();
        const sign = this.peek();
        const right: Expression =
          isOperator(sign, '-') || isOperator(sign, '+')
            ? (this.next(), { kind: 'unary', op: sign.text as '-' | '+', operand: this.parseNot(), pos: sign.pos })
            : this.parseNot();
        left = { kind: 'binary', op: '**', left, right, pos: token.pos };
      }
      return left;
    } finally {
      this.leave(chained);
    }
  }

  private parseNot(): Expression {
    const token = this.peek();
    if (isOperator(token, '~')) this.refuse(token, 'bitwise operator');
    if (isOperator(token, '!')) {
      this.next();
      this.enter(token);
      try {
        return { kind: 'unary', op: '!', operand: this.parseNot(), pos: token.pos };
      } finally {
        this.leave();
      }
    }
    return this.parseCastOrPostfix();
  }

  private parseCastOrPostfix(): Expression {
    const token = this.peek();
    if (isOperator(token, '(') && this.isCast()) {
      this.next();
      const type = this.parseType();
      this.expect(')');
      this.enter(token);
      try {
        return { kind: 'cast', type, expr: this.parseCastOperand(), style: 'cast', pos: token.pos };
      } finally {
        this.leave();
      }
    }
    return this.parsePostfix(this.parsePrimary());
  }

  private parseCastOperand(): Expression {
    const token = this.peek();
    if (isOperator(token, '-') || isOperator(token, '+') || isOperator(token, '!')) {
      this.next();
      this.enter(token);
      try {
        return { kind: 'unary', op: token.text as '-' | '+' | '!', operand: this.parseCastOperand(), pos: token.pos };
      } finally {
        this.leave();
      }
    }
    return this.parseCastOrPostfix();
  }

  /**
   * `(Type) operand` rather than a parenthesised expression: the parentheses hold only a type whose name looks like
   * one (its last name capitalised, or a primitive), and an operand follows.
   */
  private isCast(): boolean {
    const nameToken = this.peek(1);
    if (nameToken.kind !== 'identifier') return false;
    const end = this.scanType(this.index + 1);
    if (end === -1 || !isOperator(this.tokens[end], ')')) return false;
    const lastName = this.tokens[this.index + 1 + 2 * this.countQualifiers(this.index + 1)];
    if (!(lastName.kind === 'identifier' && isCapitalized(lastName.text)) && !PRIMITIVE_TYPES.has(nameToken.text))
      return false;
    const operand = this.tokens[end + 1];
    if (!operand) return false;
    switch (operand.kind) {
      case 'identifier':
      case 'number':
      case 'string':
      case 'gstring':
        return true;
      case 'keyword':
        return ['true', 'false', 'null', 'this', 'super', 'new'].includes(operand.text);
      case 'operator':
        return ['(', '[', '!', '-', '+'].includes(operand.text);
      default:
        return false;
    }
  }

  /** Number of `.name` parts after the first name of a qualified name starting at `from`. */
  private countQualifiers(from: number): number {
    let count = 0;
    while (
      isOperator(this.tokens[from + 1 + 2 * count], '.') &&
      this.tokens[from + 2 + 2 * count]?.kind === 'identifier'
    )
      count++;
    return count;
  }

  private parsePrimary(): Expression {
    const token = this.next();
    switch (token.kind) {
      case 'number':
        return { kind: 'literal', value: token.literal, pos: token.pos };
      case 'string':
        return { kind: 'literal', value: { type: 'string', value: token.value }, pos: token.pos };
      case 'gstring':
        return {
          kind: 'gstring',
          strings: token.strings,
          values: token.parts.map((part) => this.parseInterpolation(part)),
          pos: token.pos,
        };
      case 'identifier':
        return { kind: 'identifier', name: token.text, pos: token.pos };
      case 'keyword':
        switch (token.text) {
          case 'true':
          case 'false':
            return { kind: 'literal', value: { type: 'boolean', value: token.text === 'true' }, pos: token.pos };
          case 'null':
            return { kind: 'literal', value: { type: 'null' }, pos: token.pos };
          case 'new':
            return this.parseNew(token);
          case 'this':
          case 'super':
            throw syntaxFailure(
              'forbiddenName',
              `'${token.text}' is not available in expressions.`,
              token.pos,
              token.text,
            );
        }
        if (REFUSED_KEYWORDS[token.text]) this.refuse(token, REFUSED_KEYWORDS[token.text]);
        return this.unexpected(token);
      case 'operator':
        if (token.text === '(') {
          const expr = this.parseExpression();
          this.expect(')');
          return { kind: 'paren', expr, pos: token.pos };
        }
        if (token.text === '[') return this.parseListOrMap(token);
        if (token.text === '{') return this.parseClosure(token);
        if (token.text === '*') this.refuse(token, 'spread operator');
        if (token.text === '@') this.refuse(token, 'annotation');
        return this.unexpected(token);
      default:
        return this.unexpected(token);
    }
  }

  /** The tokens of one `${…}` or `$name` part; `${}` is null, as in Groovy. */
  private parseInterpolation(tokens: readonly Token[]): Expression {
    const parser = new Parser(tokens, this.depth);
    if (parser.peek().kind === 'eof') return { kind: 'literal', value: { type: 'null' }, pos: parser.peek().pos };
    parser.skipNewlines();
    const expr = parser.parseExpression();
    parser.skipNewlines();
    if (parser.peek().kind !== 'eof') parser.unexpected(parser.peek(), "'}'");
    return expr;
  }

  private parseListOrMap(open: Token): Expression {
    this.enter(open);
    try {
      if (this.at(':') && isOperator(this.peek(1), ']')) {
        this.index += 2;
        return { kind: 'map', entries: [], pos: open.pos };
      }
      const items: Expression[] = [];
      const entries: MapEntryExpression[] = [];
      while (!this.at(']')) {
        const token = this.peek();
        if (isOperator(token, '*')) this.refuse(token, 'spread operator');
        const constantKey =
          (token.kind === 'identifier' ||
            token.kind === 'keyword' ||
            token.kind === 'string' ||
            token.kind === 'number') &&
          isOperator(this.peek(1), ':');
        if (constantKey) {
          if (items.length > 0) this.unexpected(this.peek(1), "',' or ']'");
          this.index += 2;
          const value = this.parseExpression();
          const key =
            token.kind === 'number'
              ? token.literal
              : { type: 'string' as const, value: token.kind === 'string' ? token.value : token.text };
          entries.push({ key: { kind: 'constant', value: key }, value, pos: token.pos });
        } else {
          const expr = this.parseExpression();
          if (this.at(':')) {
            if (items.length > 0 || (expr.kind !== 'paren' && expr.kind !== 'gstring'))
              this.unexpected(this.peek(), "',' or ']'");
            this.next();
            const value = this.parseExpression();
            const keyExpr = expr.kind === 'paren' ? expr.expr : expr;
            entries.push({ key: { kind: 'computed', expr: keyExpr }, value, pos: token.pos });
          } else {
            if (entries.length > 0) this.unexpected(this.peek(), "':'");
            items.push(expr);
          }
        }
        if (!this.at(',')) break;
        this.next();
      }
      this.expect(']');
      return entries.length > 0 ? { kind: 'map', entries, pos: open.pos } : { kind: 'list', items, pos: open.pos };
    } finally {
      this.leave();
    }
  }

  private parseClosure(open: Token): ClosureExpression {
    this.enter(open);
    try {
      this.skipNewlines();
      const params = this.tryClosureParameters();
      const body = this.parseStatements(true);
      this.expect('}');
      return { kind: 'closure', params, body, pos: open.pos };
    } finally {
      this.leave();
    }
  }

  /** `a, String b ->` at the start of a closure; null (and no tokens used) when there is no `->`. */
  private tryClosureParameters(): Parameter[] | null {
    const save = this.index;
    if (this.at('->')) {
      this.next();
      return [];
    }
    const params: Parameter[] = [];
    for (;;) {
      const token = this.peek();
      if (token.kind !== 'identifier') break;
      let type: TypeRef | null = null;
      const following = this.peek(1);
      if (!isOperator(following, ',') && !isOperator(following, '->')) {
        const end = this.scanType(this.index);
        if (end === -1 || this.tokens[end]?.kind !== 'identifier') break;
        type = this.parseType();
      }
      const name = this.peek();
      if (name.kind !== 'identifier') break;
      this.next();
      params.push({ name: name.text, type, pos: name.pos });
      if (this.at(',')) {
        this.next();
        continue;
      }
      if (this.at('->')) {
        this.next();
        return params;
      }
      break;
    }
    this.index = save;
    return null;
  }

  private parseArguments(): Expression[] {
    this.expect('(');
    const args: Expression[] = [];
    while (!this.at(')')) {
      const token = this.peek();
      if ((token.kind === 'identifier' || token.kind === 'string') && isOperator(this.peek(1), ':')) {
        this.refuse(token, 'named arguments');
      }
      if (isOperator(token, '*')) this.refuse(token, 'spread operator');
      args.push(this.parseExpression());
      if (!this.at(',')) break;
      this.next();
    }
    this.expect(')');
    this.collectTrailingClosures(args);
    return args;
  }

  /** `m(x) { … }` and `m { … }`: closures written after the call on the same line are extra arguments. */
  private collectTrailingClosures(args: Expression[]): void {
    while (this.at('{')) args.push(this.parseClosure(this.next()));
  }

  private parsePostfix(primary: Expression): Expression {
    let expr = primary;
    let chained = 0;
    try {
      for (;;) {
        const k = this.indexPastNewlines();
        const member = this.tokens[k];
        if (member.kind === 'operator' && MEMBER_OPERATORS.has(member.text)) {
          this.index = k + 1;
          this.enter(member);
          chained++;
          this.skipNewlines();
          expr = this.parseMember(expr, member);
          continue;
        }
        const token = this.peek();
        if (isOperator(token, '.&') || isOperator(token, '::')) this.refuse(token, 'method reference');
        if (isOperator(token, '++') || isOperator(token, '--')) this.refuse(token, 'increment or decrement operator');
        if (isOperator(token, '[')) {
          this.next();
          this.enter(token);
          chained++;
          const index = this.parseExpression();
          if (this.at(',')) this.refuse(this.peek(), 'several indexes in one subscript');
          this.expect(']');
          expr = { kind: 'index', object: expr, index, pos: token.pos };
          continue;
        }
        if (isOperator(token, '(')) {
          this.enter(token);
          chained++;
          expr = { kind: 'call', callee: expr, args: this.parseArguments(), pos: token.pos };
          continue;
        }
        return expr;
      }
    } finally {
      this.leave(chained);
    }
  }

  private parseMember(object: Expression, operator: Token): Expression {
    const safe = operator.text === '?.';
    const spread = operator.text === '*.';
    const nameToken = this.next();
    let name: string | Expression;
    switch (nameToken.kind) {
      case 'identifier':
      case 'keyword':
        name = nameToken.text;
        break;
      case 'string':
        name = nameToken.value;
        break;
      case 'gstring':
        name = {
          kind: 'gstring',
          strings: nameToken.strings,
          values: nameToken.parts.map((p) => this.parseInterpolation(p)),
          pos: nameToken.pos,
        };
        break;
      default:
        if (isOperator(nameToken, '@')) this.refuse(nameToken, 'direct field access (.@)');
        return this.unexpected(nameToken, 'a property or method name');
    }
    if (this.at('(') || this.at('{')) {
      if (typeof name !== 'string') this.refuse(nameToken, 'method name computed at run time');
      const args: Expression[] = [];
      if (this.at('(')) args.push(...this.parseArguments());
      else this.collectTrailingClosures(args);
      return { kind: 'methodCall', object, name, args, safe, spread, pos: nameToken.pos };
    }
    return { kind: 'property', object, name, safe, spread, pos: nameToken.pos };
  }
}

/** Parses a token list (from `tokenize`); throws `SyntaxFailure` at the first syntax error. */
export function parseTokens(tokens: readonly Token[]): Program {
  const parser = new Parser(tokens, 0);
  return parser.parseProgram();
}
