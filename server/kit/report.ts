import type { TargetReading } from '../../src/domain/bundle/depositTargets.ts';
import type { DepositOutcome, LineError } from './terrainApi.ts';

/** Line numbers printed per kind of line error. */
const SHOWN_LINES = 10;

export interface FileResult {
  kind: 'deposited' | 'already' | 'skipped' | 'failed';
  /** The server's error code of a failed file. */
  code?: string;
}

/** A period bound as its day when it falls at midnight, as file names give them. */
const day = (bound: string | undefined) => (bound === undefined ? '?' : bound.replace(/T00:00:00$/, ''));

export function targetText(found: Extract<TargetReading, { kind: 'found' }>): string {
  const scope = Object.entries(found.scope).map(([component, text]) => `${component}=${text}`);
  const period = found.from || found.to ? [`${day(found.from)} → ${day(found.to)}`] : [];
  return `${found.dataType} (${[...scope, ...period].join(', ')})`;
}

export function outcomeText(outcome: DepositOutcome): string[] {
  switch (outcome.kind) {
    case 'deposited':
      return [
        `deposited${outcome.rowCount !== undefined ? `, ${outcome.rowCount} rows` : ''}${outcome.publishing ? ', publication requested' : ''} (version ${outcome.fileId})`,
      ];
    case 'already':
      return [`already there (version ${outcome.fileId})`];
    case 'refused':
      return [
        `failed: ${outcome.code}${Object.keys(outcome.params).length ? ` ${JSON.stringify(outcome.params)}` : ''} (HTTP ${outcome.status})`,
        ...lineErrorSummary(outcome.errors).map((line) => `    ${line}`),
      ];
  }
}

/**
 * One line per kind of error (code and column): a file refused for a wrong period or a misspelt column gives the
 * same error on every line, which a list of each would bury. The first error of each kind is shown whole.
 */
function lineErrorSummary(errors: readonly LineError[]): string[] {
  const kinds = new Map<string, LineError[]>();
  for (const error of errors) {
    const kind = `${error.code}${error.column ? ` (column ${error.column})` : ''}`;
    kinds.set(kind, [...(kinds.get(kind) ?? []), error]);
  }
  return [...kinds].map(([kind, group]) => {
    const [first] = group;
    const lines = group.map((error) => error.lineNumber);
    const shown = lines.slice(0, SHOWN_LINES).join(', ') + (lines.length > SHOWN_LINES ? ', …' : '');
    const params = first.params && Object.keys(first.params).length ? ` ${JSON.stringify(first.params)}` : '';
    const example = `${first.value !== undefined ? ` "${first.value}"` : ''}${params}`;
    if (lines.length === 1) return `${kind}: line ${first.lineNumber}${example}`;
    return `${kind}: ${lines.length} lines (${shown}); line ${first.lineNumber}${example}`;
  });
}

export function summaryText(results: ReadonlyMap<string, FileResult>): string {
  const count = (kind: FileResult['kind']) => [...results.values()].filter((result) => result.kind === kind).length;
  const failed = [...results].filter(([, result]) => result.kind === 'failed');
  return [
    `${results.size} files: ${count('deposited')} deposited, ${count('already')} already there, ${count('skipped')} skipped, ${failed.length} failed.`,
    ...failed.map(([name, result]) => `Failed: ${name} (${result.code})`),
  ].join('\n');
}
