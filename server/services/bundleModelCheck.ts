import { isVersioned, type BundleDeposit, type BundleManifest } from '../../src/domain/bundle/manifest.ts';
import type { ApplicationModel } from '../../src/domain/configuration/index.ts';
import { isRestorableAdditionalFileName } from '../../src/domain/additionalFiles/fileName.ts';
import { CHARTER_TYPES } from '../../src/domain/applications/charter.ts';
import { BundleRefused } from './bundleRefused.ts';

/** Checks what the manifest says against the configuration, before anything is written. */
export function checkAgainstModel(manifest: BundleManifest, model: ApplicationModel) {
  const entryOf = (dataName: string) => model.data.find((entry) => entry.name === dataName);
  for (const data of manifest.data) {
    const entry = entryOf(data.dataName);
    if (!entry || entry.kind !== data.kind || data.restored === isVersioned(entry))
      throw new BundleRefused('dataNotInConfiguration', { dataName: data.dataName });
  }
  for (const deposit of manifest.deposits) {
    const entry = entryOf(deposit.dataName);
    if (!entry || !isVersioned(entry))
      throw new BundleRefused('dataNotInConfiguration', { dataName: deposit.dataName });
    const components = entry.submission.referenceScopes.map((scope) => scope.component).sort();
    if (JSON.stringify(Object.keys(deposit.scope).sort()) !== JSON.stringify(components))
      throw new BundleRefused('badDepositScope', { entry: deposit.path });
    if (Boolean(entry.submission.timeScope) !== (deposit.from !== null && deposit.to !== null))
      throw new BundleRefused('badDepositPeriod', { entry: deposit.path });
  }
  checkPublishedVersions(manifest.deposits);
  const fileTypes = new Set([...model.additionalFiles.map((type) => type.name), ...CHARTER_TYPES]);
  for (const file of manifest.additionalFiles) {
    if (!fileTypes.has(file.fileType)) throw new BundleRefused('unknownFileType', { fileType: file.fileType });
    if (!isRestorableAdditionalFileName(file.fileName)) throw new BundleRefused('badFileName', { entry: file.path });
  }
}

/** Published versions of one dataset never overlap (publication replaces or refuses): a manifest saying so is refused. */
function checkPublishedVersions(deposits: readonly BundleDeposit[]) {
  const published = deposits.filter((deposit) => deposit.published);
  for (const [index, one] of published.entries()) {
    for (const other of published.slice(index + 1)) {
      if (
        one.dataName !== other.dataName ||
        JSON.stringify(Object.entries(one.scope).sort()) !== JSON.stringify(Object.entries(other.scope).sort())
      )
        continue;
      const apart =
        one.from !== null &&
        one.to !== null &&
        other.from !== null &&
        other.to !== null &&
        (one.to < other.from || other.to < one.from);
      if (!apart) throw new BundleRefused('overlappingPublishedVersions', { files: [one.fileName, other.fileName] });
    }
  }
}
