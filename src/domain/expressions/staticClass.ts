/** The shape of a Java class an expression may name, shared by the modules that list such classes. */
import type { Runtime } from './runtime';

export interface StaticMethod {
  /** `Class.member`, for messages. */
  readonly name: string;
  readonly min: number;
  readonly max: number;
  invoke(rt: Runtime, args: readonly unknown[]): unknown;
}

export type StaticMember =
  { readonly kind: 'method'; readonly method: StaticMethod } | { readonly kind: 'constant'; readonly value: unknown };

export interface StaticClass {
  /** Names the class answers to: simple and fully qualified. */
  readonly names: readonly string[];
  readonly methods: Readonly<Record<string, Omit<StaticMethod, 'name'>>>;
  readonly constants: Readonly<Record<string, unknown>>;
}
