import { msg } from '@lingui/core/macro';
import type { I18n, MessageDescriptor } from '@lingui/core';
import type { OutboxItem, OutboxKind, OutboxStatus } from './outboxTypes';

const kinds: Record<OutboxKind, MessageDescriptor> = {
  'application.create': msg`Create the application {name} from {fileName}`,
  'application.update': msg`Update the application {name} (version {from}) from {fileName}`,
  'application.restore': msg`Restore the application {name} from the backup {fileName}`,
  'role.grant': msg`Grant the role {role} to {login}`,
  'role.revoke': msg`Revoke the role {role} from {login}`,
  // `entry` is absent from changes kept before data types were told apart: those were references.
  'reference.upload': msg`{entry, select, dataType {Load {fileName} into the data type {reference} of {name}} other {Load {fileName} into the reference {reference} of {name}}}`,
  'reference.delete': msg`{entry, select, dataType {Delete {keys} from the data type {reference} of {name}} other {Delete {keys} from the reference {reference} of {name}}}`,
  'deposit.upload': msg`Deposit {fileName} into the data type {dataType} of {name}`,
  'deposit.publish': msg`{action, select, publish {Publish} other {Unpublish}} the version {file} of the data type {dataType} of {name}`,
  'deposit.delete': msg`Delete the version {file} of the data type {dataType} of {name}`,
  'authorization.save': msg`Save the authorization {authorization} of {name}`,
  'authorization.revoke': msg`Revoke the authorization {authorization} of {name}`,
  'additionalFile.save': msg`{action, select, modify {Modify the additional file {fileName} of {name}} other {Add the additional file {fileName} to {name}}}`,
  'additionalFile.delete': msg`Delete the additional files {fileNames} of {name}`,
  'additionalFileAuthorization.save': msg`Save the additional-file authorization {authorization} of {name}`,
  'additionalFileAuthorization.revoke': msg`Revoke the additional-file authorization {authorization} of {name}`,
  'charter.accept': msg`Accept the usage charter of {name}`,
  'charter.upload': msg`Upload {fileName} as the usage charter of {name}`,
  'rightsRequest.save': msg`{action, select, grant {Grant the rights request of {login} on {name}} close {Close the rights request of {login} on {name}} modify {Modify your rights request on {name}} other {Ask for rights on {name}}}`,
};

export const statusMessages: Record<OutboxStatus, MessageDescriptor> = {
  queued: msg`Waiting to be sent`,
  sending: msg`Sending`,
  done: msg`Applied`,
  'needs-attention': msg`Needs your attention`,
};

/** A change kept by an earlier version of Terrain, of a kind this one no longer makes: still listed, by its kind. */
const unknownKind = msg`A change of a kind this version of Terrain does not know ({kind})`;

export function describeChange(i18n: I18n, item: OutboxItem): string {
  const known = Object.prototype.hasOwnProperty.call(kinds, item.kind) ? kinds[item.kind] : undefined;
  const message: MessageDescriptor = { ...(known ?? unknownKind), values: { ...item.summary, kind: item.kind } };
  return i18n._(message);
}

/** Changes whose form can be reopened with their input. */
export const EDITABLE_KINDS: ReadonlySet<OutboxKind> = new Set([
  'application.create',
  'application.update',
  'reference.upload',
  'deposit.upload',
  'authorization.save',
  'rightsRequest.save',
  'additionalFile.save',
]);

/** Whether the change's form can be reopened: a request's grant or closing is not (it is treated again instead). */
export function isEditable(item: OutboxItem): boolean {
  if (item.kind === 'rightsRequest.save') return item.summary.action === 'ask' || item.summary.action === 'modify';
  // Saves of additional files queued before their input was kept have nothing to reopen the form with.
  if (item.kind === 'additionalFile.save') return item.input !== undefined;
  return EDITABLE_KINDS.has(item.kind);
}
