import { Trans, useLingui } from '@lingui/react/macro';
import { FileInput } from '@/components/ui/file-input';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import type { AdditionalFile } from '../api';
import { formatSize } from '@/lib/i18n/formatSize';
import type { FileForm } from '../hooks/useFileForm';
import { Panel } from './Panel';

interface FilePanelProps {
  /** The file stored so far (edition), or null (creation). */
  stored: AdditionalFile | null;
  form: FileForm;
  editable: boolean;
  isNew: boolean;
}

/** The file itself: the one stored, the one to send (or to replace it by), its name, and whether it is the whole application's. */
export function FilePanel({ stored, form, editable, isNew }: FilePanelProps) {
  const { t, i18n } = useLingui();
  return (
    <Panel title={<Trans>File</Trans>} open={isNew}>
      {stored ? (
        <p className="text-sm text-muted-foreground">
          <Trans>
            Stored file: {stored.fileName}, {formatSize(i18n, stored.size)}. Choose another file only to replace it.
          </Trans>
        </p>
      ) : null}
      {editable ? (
        <FormField
          label={isNew ? `${t`File to send`} *` : t`Replace by`}
          hint={form.chosen ? `${form.chosen.name}, ${formatSize(i18n, form.chosen.size)}` : undefined}
          error={form.partError('ADDITIONAL_FILE_REQUIRED', 'file')}
        >
          <FileInput onChange={(event) => form.choose(event.target.files?.[0] ?? null)} />
        </FormField>
      ) : null}
      <FormField
        label={`${t`File name`} *`}
        hint={t`Letters, digits, _, -, . and spaces, not beginning with a dot.`}
        error={form.nameError}
      >
        <Input
          value={form.fileName}
          disabled={!editable}
          onChange={(event) => form.changeFileName(event.target.value)}
          onBlur={() => form.touch('fileName')}
        />
      </FormField>
      <div className="flex min-h-11 items-center gap-3">
        <Switch
          id="for-application"
          checked={form.forApplication}
          disabled={!editable}
          onCheckedChange={form.setForApplication}
        />
        <Label htmlFor="for-application">
          <Trans>For the whole application</Trans>
        </Label>
      </div>
    </Panel>
  );
}
