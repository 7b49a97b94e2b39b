import type { TargetReading } from '../../src/domain/bundle/depositTargets.ts';

/** What one deposit request sends: the same target and bytes always give the same request. */
export interface DepositRequest {
  application: string;
  dataType: string;
  fileName: string;
  /** The `params` field as sent. */
  params: string;
  content: Uint8Array;
}

export interface DepositChoices {
  publish: boolean;
  comment: string;
}

/** The deposit of a file where its name says, with the dataset and period it gives. */
export function depositRequest(
  application: string,
  target: Extract<TargetReading, { kind: 'found' }>,
  fileName: string,
  content: Uint8Array,
  choices: DepositChoices,
): DepositRequest {
  const params = {
    binaryfiledataset: {
      datatype: target.dataType,
      requiredAuthorizations: target.scope,
      ...(target.from ? { from: target.from } : {}),
      ...(target.to ? { to: target.to } : {}),
      comment: choices.comment,
    },
    topublish: choices.publish,
  };
  return { application, dataType: target.dataType, fileName, params: JSON.stringify(params), content };
}
