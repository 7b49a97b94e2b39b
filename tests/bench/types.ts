/** One line of the benchmark report. */
export interface BenchFigure {
  name: string;
  value: number;
  unit: string;
  /** Human-readable target, e.g. "≤ 20 ms" or "ratio ≤ 2.0". */
  target?: string;
  /** Whether the figure meets its target (undefined when there is no target). */
  pass?: boolean;
}

export interface BenchOptions {
  quick: boolean;
}

export interface Benchmark {
  /** Area of the product, shown as a heading in the report. */
  area: string;
  run(options: BenchOptions): Promise<BenchFigure[]>;
}
