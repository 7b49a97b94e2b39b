/**
 * The tree-walking evaluator. One `Evaluation` runs one compiled expression on one context: it owns the step
 * counter, the closure call depth and the script variables, so evaluations share nothing but the look-up indexes
 * of findIndex.ts. Every error leaves as an `ExpressionError` located at the node that failed.
 */
import { getAt, getProperty } from './access';
import { coerce, isInstance } from './coercion';
import type { ExpressionContext } from './context';
import { groovyCompare, groovyEquals } from './equality';
import { ExpressionError } from './errors';
import { answerFromIndex, usableIndex } from './findIndex';
import { invokeMethod } from './gdkMethods';
import { raiseGroovyException } from './groovyException';
import {
  CaughtException,
  GString,
  GroovyClosure,
  GroovyExceptionValue,
  type MapKey,
  asMapKey,
  fromHost,
  groovyToString,
  isGroovyMap,
  isStringLike,
  mapEntries,
  textOf,
  toHost,
  truthy,
  typeName,
} from './groovyValues';
import { HELPERS } from './helpers';
import type { BinaryOp, CatchNode, DeclaredType, Frame, Node, ScriptNode, VariableRef } from './ir';
import { compileRegex } from './regexMethods';
import { type EvaluationLimits, resolveLimits } from './limits';
import { double, float, long } from './numbers';
import { compare, isCase, minus, multiply, numericOnly, plus, unaryMinus, unaryPlus } from './operators';
import type { Runtime } from './runtime';

function frameAt(frame: Frame, depth: number): Frame {
  let current = frame;
  for (let d = depth; d > 0; d--) current = current.parent as Frame;
  return current;
}

/** What `int x` (with no value) holds: primitives start at zero, everything else at null. */
function initialValue(type: DeclaredType | null): unknown {
  if (!type?.primitive) return null;
  switch (type.name) {
    case 'Integer':
      return 0;
    case 'Long':
      return long(0n);
    case 'Float':
      return float(0);
    case 'Double':
      return double(0);
    case 'Boolean':
      return false;
    default:
      return null;
  }
}

function regexText(pattern: unknown): string {
  return isStringLike(pattern) ? textOf(pattern) : groovyToString(pattern);
}

class Evaluation implements Runtime {
  private steps = 0;
  private callDepth = 0;
  /** Set by `return` until the enclosing closure call or the script end consumes it. */
  private returning = false;
  private returnValue: unknown = null;
  /** Script variables assigned without a declaration (Groovy's binding); most expressions have none. */
  private bindings: Map<string, unknown> | null = null;

  constructor(
    readonly context: ExpressionContext,
    private readonly limits: EvaluationLimits,
  ) {}

  tick(steps = 1): void {
    this.steps += steps;
    if (this.steps > this.limits.maxSteps) {
      throw new ExpressionError('expressionTooLong', `The evaluation needed more than ${this.limits.maxSteps} steps.`, {
        maxSteps: this.limits.maxSteps,
      });
    }
  }

  checkString(length: number): void {
    if (length > this.limits.maxStringLength) {
      throw new ExpressionError('valueTooLarge', `A string would exceed ${this.limits.maxStringLength} characters.`, {
        limit: this.limits.maxStringLength,
      });
    }
  }

  checkSize(size: number): void {
    if (size > this.limits.maxCollectionSize) {
      throw new ExpressionError(
        'valueTooLarge',
        `A collection would exceed ${this.limits.maxCollectionSize} elements.`,
        {
          limit: this.limits.maxCollectionSize,
        },
      );
    }
  }

  text(value: unknown): string {
    return groovyToString(value, this.limits.maxStringLength);
  }

  run(script: ScriptNode): unknown {
    const frame: Frame = { slots: new Array<unknown>(script.frameSize).fill(null), parent: null };
    const value = this.block(script.body, frame);
    return this.returning ? this.returnValue : value;
  }

  /** Runs statements; the value is the last one's, as Groovy returns the last statement of a script or closure. */
  private block(body: readonly Node[], frame: Frame): unknown {
    let value: unknown = null;
    for (const node of body) {
      value = this.evaluate(node, frame);
      if (this.returning) return null;
    }
    return value;
  }

  /** Runs a try block; an evaluation error that a catch names runs that catch instead (limits are never named). */
  private tryBlock(body: readonly Node[], catches: readonly CatchNode[], frame: Frame): unknown {
    try {
      return this.block(body, frame);
    } catch (error) {
      if (!(error instanceof ExpressionError)) throw error;
      const handler = catches.find((c) => c.codes.has(error.code));
      if (!handler) throw error;
      frame.slots[handler.slot] = new CaughtException(error, handler.javaType);
      return this.block(handler.body, frame);
    }
  }

  call(closure: GroovyClosure, args: readonly unknown[]): unknown {
    const definition = closure.definition;
    if (this.callDepth >= this.limits.maxCallDepth) {
      throw new ExpressionError(
        'recursionTooDeep',
        `Closures are nested more than ${this.limits.maxCallDepth} calls deep.`,
        {
          maxCallDepth: this.limits.maxCallDepth,
        },
      );
    }
    this.tick();
    const frame: Frame = { slots: new Array<unknown>(definition.frameSize).fill(null), parent: closure.frame };
    const expected = definition.params.length;
    if (definition.implicitIt ? args.length > 1 : args.length !== expected) {
      throw new ExpressionError('badArguments', `The closure takes ${expected} argument(s), not ${args.length}.`, {
        expected,
        actual: args.length,
      });
    }
    for (let k = 0; k < definition.params.length; k++) {
      const param = definition.params[k];
      const value = args[k] ?? null;
      frame.slots[param.slot] = param.type ? coerce(value, param.type, 'cast', this.limits.maxStringLength) : value;
    }
    this.callDepth++;
    try {
      const value = this.block(definition.body, frame);
      if (!this.returning) return value;
      this.returning = false;
      const returned = this.returnValue;
      this.returnValue = null;
      return returned;
    } finally {
      this.callDepth--;
    }
  }

  /** Evaluates argument or element nodes in order (a plain loop: this runs for every call of every row). */
  private evalAll(nodes: readonly Node[], frame: Frame): unknown[] {
    const values = new Array<unknown>(nodes.length);
    for (let k = 0; k < nodes.length; k++) values[k] = this.evaluate(nodes[k], frame);
    return values;
  }

  private evaluate(node: Node, frame: Frame): unknown {
    this.tick();
    try {
      return this.evalNode(node, frame);
    } catch (error) {
      throw error instanceof ExpressionError ? error.locatedAt(node.pos) : error;
    }
  }

  private evalNode(node: Node, frame: Frame): unknown {
    switch (node.k) {
      case 'const':
        return node.value;
      case 'gstring': {
        let text = node.strings[0];
        for (let k = 0; k < node.parts.length; k++) {
          const piece = this.text(this.evaluate(node.parts[k], frame));
          this.checkString(text.length + piece.length + node.strings[k + 1].length);
          text += piece + node.strings[k + 1];
        }
        return new GString(text);
      }
      case 'list':
        this.checkSize(node.items.length);
        return this.evalAll(node.items, frame);
      case 'map': {
        const map = new Map<MapKey, unknown>();
        for (const entry of node.entries) {
          const key = this.evaluate(entry.key, frame);
          const mapKey = asMapKey(key);
          if (mapKey === undefined) {
            throw new ExpressionError('unsupportedMapKey', `A ${typeName(key)} cannot be used as a map key here.`, {
              type: typeName(key),
            });
          }
          map.set(mapKey, this.evaluate(entry.value, frame));
        }
        return map;
      }
      case 'local':
        return frameAt(frame, node.depth).slots[node.slot];
      case 'binding':
        return this.readBinding(node.name);
      case 'context':
        return fromHost(this.context[node.name]);
      case 'declare': {
        let value = node.init ? this.evaluate(node.init, frame) : initialValue(node.type);
        if (node.type) value = coerce(value, node.type, 'cast', this.limits.maxStringLength);
        frame.slots[node.slot] = value;
        return value;
      }
      case 'assign': {
        let value = this.evaluate(node.value, frame);
        if (node.operator) value = this.binary(node.operator, this.readVariable(node.target, node.name, frame), value);
        if (node.type) value = coerce(value, node.type, 'cast', this.limits.maxStringLength);
        if (node.target.kind === 'local') frameAt(frame, node.target.depth).slots[node.target.slot] = value;
        else (this.bindings ??= new Map()).set(node.name, value);
        return value;
      }
      case 'property': {
        const target = this.evaluate(node.object, frame);
        if ((target === null || target === undefined) && (node.safe || node.spread)) return null;
        if (node.spread)
          return this.spread(target).map((item) => (item === null ? null : getProperty(item, node.name)));
        return getProperty(target, node.name);
      }
      case 'dynamicProperty': {
        const target = this.evaluate(node.object, frame);
        const name = groovyToString(this.evaluate(node.name, frame));
        if ((target === null || target === undefined) && (node.safe || node.spread)) return null;
        if (node.spread) return this.spread(target).map((item) => (item === null ? null : getProperty(item, name)));
        return getProperty(target, name);
      }
      case 'index':
        return getAt(this.evaluate(node.object, frame), this.evaluate(node.index, frame));
      case 'method': {
        const receiver = this.evaluate(node.object, frame);
        if ((receiver === null || receiver === undefined) && (node.safe || node.spread)) return null;
        const args = this.evalAll(node.args, frame);
        if (node.spread)
          return this.spread(receiver).map((item) =>
            item === null ? null : invokeMethod(this, item, node.name, args),
          );
        return invokeMethod(this, receiver, node.name, args);
      }
      case 'static':
        return node.method.invoke(this, this.evalAll(node.args, frame));
      case 'helper':
        return HELPERS[node.helper].invoke(this, this.evalAll(node.args, frame));
      case 'callValue': {
        const callee = this.evaluate(node.callee, frame);
        if (!(callee instanceof GroovyClosure)) {
          throw new ExpressionError('noSuchMethod', `A ${typeName(callee)} cannot be called.`, {
            method: 'call',
            type: typeName(callee),
          });
        }
        return this.call(callee, this.evalAll(node.args, frame));
      }
      case 'closure':
        return new GroovyClosure(node, frame);
      case 'unary': {
        const operand = this.evaluate(node.operand, frame);
        if (node.op === '!') return !truthy(operand);
        return node.op === '-' ? unaryMinus(operand) : unaryPlus(operand);
      }
      case 'binary':
        return this.binary(node.op, this.evaluate(node.left, frame), this.evaluate(node.right, frame));
      case 'and':
        return truthy(this.evaluate(node.left, frame)) && truthy(this.evaluate(node.right, frame));
      case 'or':
        return truthy(this.evaluate(node.left, frame)) || truthy(this.evaluate(node.right, frame));
      case 'ternary':
        return truthy(this.evaluate(node.condition, frame))
          ? this.evaluate(node.whenTrue, frame)
          : this.evaluate(node.whenFalse, frame);
      case 'elvis': {
        const value = this.evaluate(node.value, frame);
        return truthy(value) ? value : this.evaluate(node.fallback, frame);
      }
      case 'cast':
        return coerce(this.evaluate(node.expr, frame), node.type, node.style, this.limits.maxStringLength);
      case 'instanceof':
        return isInstance(this.evaluate(node.expr, frame), node.type) !== node.negated;
      case 'try':
        return this.tryBlock(node.body, node.catches, frame);
      case 'if':
        if (truthy(this.evaluate(node.condition, frame))) return this.block(node.then, frame);
        return node.otherwise ? this.block(node.otherwise, frame) : null;
      case 'return':
        this.returnValue = node.value ? this.evaluate(node.value, frame) : null;
        this.returning = true;
        return this.returnValue;
      case 'throw': {
        const value = this.evaluate(node.value, frame);
        if (value instanceof GroovyExceptionValue) throw raiseGroovyException(this, value);
        if (value instanceof CaughtException) throw value.error;
        throw new ExpressionError('cannotCast', `Only a GroovyException can be thrown, not a ${typeName(value)}.`, {
          from: typeName(value),
          to: 'Throwable',
        });
      }
      case 'indexedLookup': {
        const receiver = this.evaluate(node.receiver, frame);
        const index = Array.isArray(receiver) ? usableIndex(this, receiver, node.plan) : undefined;
        if (index)
          return answerFromIndex(
            this,
            receiver as unknown[],
            index,
            node.plan.equality,
            node.method,
            this.evaluate(node.key, frame),
          );
        return invokeMethod(this, receiver, node.method, [new GroovyClosure(node.closure, frame)]);
      }
    }
  }

  private readBinding(name: string): unknown {
    if (!this.bindings?.has(name)) {
      throw new ExpressionError(
        'unknownVariable',
        `'${name}' has no value here: it is not assigned before this point, nor a variable of the expression's context.`,
        { variable: name },
      );
    }
    return this.bindings.get(name);
  }

  private readVariable(target: VariableRef, name: string, frame: Frame): unknown {
    return target.kind === 'local' ? frameAt(frame, target.depth).slots[target.slot] : this.readBinding(name);
  }

  /** The elements a spread operator (`*.`) visits: a list's elements or a map's entries. */
  private spread(target: unknown): readonly unknown[] {
    if (Array.isArray(target)) return target;
    if (isGroovyMap(target)) return mapEntries(target);
    throw new ExpressionError('noSuchMethod', `The spread operator needs a list, not a ${typeName(target)}.`, {
      type: typeName(target),
    });
  }

  private binary(op: BinaryOp, left: unknown, right: unknown): unknown {
    switch (op) {
      case '+':
        return plus(this, left, right);
      case '-':
        return minus(this, left, right);
      case '*':
        return multiply(this, left, right);
      case '/':
      case '%':
      case '**':
        return numericOnly(op, left, right);
      case '==':
        return groovyEquals(left, right);
      case '!=':
        return !groovyEquals(left, right);
      case '<':
      case '<=':
      case '>':
      case '>=':
        return compare(op, left, right);
      case '<=>':
        return Math.sign(groovyCompare(left, right));
      case 'in':
        return isCase(this, right, left);
      case '!in':
        return !isCase(this, right, left);
      case '==~':
        if (left === null || left === undefined || right === null || right === undefined) return false;
        return compileRegex(regexText(right)).matches(this.text(left), (steps) => this.tick(steps));
      case '=~':
        if (left === null || left === undefined || right === null || right === undefined) return false;
        return compileRegex(regexText(right)).find(this.text(left), 0, (steps) => this.tick(steps)) !== null;
    }
  }
}

/** Runs a compiled script; throws only `ExpressionError`. */
export function evaluateScript(
  script: ScriptNode,
  context: ExpressionContext,
  limits?: Partial<EvaluationLimits>,
): unknown {
  const evaluation = new Evaluation(context ?? {}, resolveLimits(limits));
  try {
    return toHost(evaluation.run(script));
  } catch (error) {
    if (error instanceof ExpressionError) throw error;
    if (error instanceof RangeError) {
      // The JavaScript engine's own limits: stack depth, or string/array/bigint sizes.
      if (/call stack/i.test(error.message)) {
        throw new ExpressionError('recursionTooDeep', 'The expression nests too deeply to evaluate.', {});
      }
      throw new ExpressionError('valueTooLarge', 'A value grew too large.', {});
    }
    throw new ExpressionError('internalError', `Unexpected failure of the expression engine: ${String(error)}`, {});
  }
}
