import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { Operation } from '@/domain/rights/operations';

/** Short column titles of the rights table. */
export const operationLabels: Record<Operation, MessageDescriptor> = {
  depot: msg`Deposit`,
  publication: msg`Publish`,
  delete: msg`Delete`,
  extraction: msg`Read`,
  admin: msg`Grant`,
};

/** What each column allows, for the table's legend and screen readers. */
export const operationHelp: Record<Operation, MessageDescriptor> = {
  depot: msg`deposit files and load references`,
  publication: msg`publish and unpublish versions`,
  delete: msg`delete rows and versions`,
  extraction: msg`consult and download`,
  admin: msg`give these rights to others`,
};
