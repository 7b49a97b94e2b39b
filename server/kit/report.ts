import type { TargetReading } from '../../src/domain/bundle/depositTargets.ts';
import type { DepositOutcome, LineError } from './terrainApi.ts';

/** Line errors printed per failed file; the server sends at most its own limit anyway. */
const SHOWN_ERRORS = 20;

export type FileResult = 'deposited' | 'already' | 'skipped' | 'failed';

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
        ...outcome.errors.slice(0, SHOWN_ERRORS).map((error) => `    ${lineErrorText(error)}`),
        ...(outcome.errors.length > SHOWN_ERRORS ? [`    … ${outcome.errors.length - SHOWN_ERRORS} more`] : []),
      ];
  }
}

function lineErrorText(error: LineError): string {
  const where = [`line ${error.lineNumber}`, ...(error.column ? [`column ${error.column}`] : [])].join(', ');
  const value = error.value !== undefined ? ` "${error.value}"` : '';
  const params = error.params && Object.keys(error.params).length ? ` ${JSON.stringify(error.params)}` : '';
  return `${where}: ${error.code}${value}${params}`;
}

export function summaryText(results: ReadonlyMap<string, FileResult>): string {
  const count = (result: FileResult) => [...results.values()].filter((value) => value === result).length;
  const failed = [...results].filter(([, result]) => result === 'failed').map(([name]) => name);
  return [
    `${results.size} files: ${count('deposited')} deposited, ${count('already')} already there, ${count('skipped')} skipped, ${failed.length} failed.`,
    ...(failed.length ? [`Failed: ${failed.join(', ')}`] : []),
  ].join('\n');
}
