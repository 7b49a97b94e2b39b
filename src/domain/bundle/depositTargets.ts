import { entriesInLoadOrder } from '../configuration/entriesInLoadOrder';
import type { ApplicationModel, Submission } from '../configuration/model';
import { readFileName, type FileNameScope } from '../deposits/fileName';

/**
 * What the upload kit's deposit script knows of an application: the versioned data types whose configuration
 * names their files (`OA_fileName`), with their submission, computed by the server when it builds the kit.
 */
export interface DepositKit {
  application: string;
  /** In load order. */
  targets: DepositTarget[];
}

export interface DepositTarget {
  dataType: string;
  submission: Submission;
}

/** Where a file goes, read from its name with the same reading as the deposit form's. */
export type TargetReading =
  ({ kind: 'found'; dataType: string } & FileNameScope) | { kind: 'none' } | { kind: 'several'; dataTypes: string[] };

export function depositKit(application: string, model: ApplicationModel): DepositKit {
  const targets = entriesInLoadOrder(model)
    .filter((entry) => entry.kind === 'dataType' && entry.submission.strategy === 'OA_VERSIONING')
    .filter((entry) => entry.submission.fileName !== null)
    .map((entry) => ({ dataType: entry.name, submission: entry.submission }));
  return { application, targets };
}

/**
 * The data type whose file-name pattern the name follows, and what the name says of the dataset. A name two
 * patterns accept names no data type: the script would otherwise deposit it where the load order happens to put
 * it first.
 */
export function readDepositTarget(targets: readonly DepositTarget[], fileName: string): TargetReading {
  const found = targets.flatMap((target) => {
    const read = readFileName(target.submission, fileName);
    return read ? [{ dataType: target.dataType, ...read }] : [];
  });
  if (found.length === 0) return { kind: 'none' };
  if (found.length > 1) return { kind: 'several', dataTypes: found.map((target) => target.dataType) };
  return { kind: 'found', ...found[0] };
}
