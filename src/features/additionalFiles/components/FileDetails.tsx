import { Fragment } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { LinkStatus } from '@/domain/additionalFiles/fileView';
import { localized } from '@/domain/applications/summary';
import type { AdditionalFileType, ApplicationModel } from '@/domain/configuration/model';
import { InTheBackup } from '@/components/backup/InTheBackup';
import type { AdditionalFile, FieldChoices } from '../api';
import { formatSize } from '@/lib/i18n/formatSize';
import { fieldTitle, fieldValueText } from '../display';

interface FileDetailsProps {
  file: AdditionalFile;
  status: LinkStatus;
  type: AdditionalFileType;
  model: ApplicationModel;
  fieldChoices: FieldChoices;
}

/** Everything known of one file: its form's fields, comment, size, author, last change and what it is attached to. */
export function FileDetails({ file, status, type, model, fieldChoices }: FileDetailsProps) {
  const { t, i18n } = useLingui();
  const changedAt = i18n.date(new Date(file.updateDate), { dateStyle: 'medium', timeStyle: 'short' });
  // Said when someone else than its author changed it last (a type's administrator replacing it).
  const changer = file.updatedByLogin;
  const text = (value: Record<string, string> | undefined, fallback = '') =>
    localized(value, i18n.locale, model.defaultLanguage, fallback);
  return (
    <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
      {type.fields.map((field) => (
        <Fragment key={field.name}>
          <dt className="font-medium text-muted-foreground">{fieldTitle(field, i18n.locale, model.defaultLanguage)}</dt>
          <dd className="break-words">
            {fieldValueText(field, file.additionalBinaryFileForm[field.name], fieldChoices) || '—'}
          </dd>
        </Fragment>
      ))}
      <dt className="font-medium text-muted-foreground">
        <Trans>Comment</Trans>
      </dt>
      <dd className="whitespace-pre-wrap break-words">{file.comment}</dd>
      <dt className="font-medium text-muted-foreground">
        <Trans>Size</Trans>
      </dt>
      <dd>{formatSize(i18n, file.size)}</dd>
      <dt className="font-medium text-muted-foreground">
        <Trans>Author</Trans>
      </dt>
      <dd>
        {file.ownerLogin ?? '—'}
        <InTheBackup login={file.originalOwner} />
      </dd>
      <dt className="font-medium text-muted-foreground">
        <Trans>Updated</Trans>
      </dt>
      <dd>
        {changer && changer !== file.ownerLogin ? (
          <Trans>
            {changedAt} by {changer}
          </Trans>
        ) : (
          changedAt
        )}
      </dd>
      <dt className="font-medium text-muted-foreground">
        <Trans>Attached to</Trans>
      </dt>
      <dd>
        {status === 'none'
          ? '—'
          : [
              ...(file.forApplication ? [t`the whole application`] : []),
              ...Object.entries(file.associates).map(([dataName, { scopes }]) => {
                const entryTitle = text(model.data.find((d) => d.name === dataName)?.i18n.title, dataName);
                const keys = Object.values(scopes).flat();
                return keys.length ? `${entryTitle} (${keys.join(', ')})` : entryTitle;
              }),
            ].join(' · ')}
      </dd>
    </dl>
  );
}
