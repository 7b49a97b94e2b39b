import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Send, X } from 'lucide-react';
import type { AdditionalFileType, ApplicationModel } from '@/domain/configuration/model';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { useFileForm } from '../hooks/useFileForm';
import type { EditedFileSave } from '../hooks/useEditedFileSave';
import type { FileFormData } from '../hooks/useFileFormData';
import { AssociatedDataPanel } from './AssociatedDataPanel';
import { DescriptionSection } from './DescriptionSection';
import { FilePanel } from './FilePanel';

interface FileFormProps {
  applicationName: string;
  model: ApplicationModel;
  type: AdditionalFileType;
  /** What the form starts from, read: the stored file when editing, the choices and names. */
  data: FileFormData;
  isNew: boolean;
  editable: boolean;
  /** A refused save reopened from the pending changes. */
  replaces?: EditedFileSave;
}

/** The form of an additional file: its description, the file, the data it is attached to, and sending it. */
export function FileForm({ applicationName, model, type, data, isNew, editable, replaces }: FileFormProps) {
  const { t } = useLingui();
  const form = useFileForm(applicationName, model, type, data, isNew, replaces);
  const { valid, progress } = form;
  return (
    <form
      className="grid grid-cols-1 gap-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void form.submit();
      }}
    >
      {form.replacing ? (
        <Alert variant="warning" data-testid="file-replaces">
          <Trans>
            The server refused {form.replacing.input.fileName}: correct it and save it again to replace it in the
            pending changes.
          </Trans>
        </Alert>
      ) : null}
      <DescriptionSection model={model} type={type} choices={data.choices} form={form} editable={editable} />
      <FilePanel stored={data.file} form={form} editable={editable} isNew={isNew} />
      <AssociatedDataPanel
        applicationName={applicationName}
        model={model}
        associates={form.associates}
        disabled={!editable}
        onChange={form.setAssociates}
      />

      {progress !== null ? (
        <div className="grid gap-1" data-testid="upload-progress">
          <Progress value={progress} label={t`Sending the file`} />
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {t`Sending…`} {Math.round(progress * 100)} %
          </p>
        </div>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <Button asChild variant="outline">
          <Link {...form.listPath}>
            <X aria-hidden />
            <Trans>Cancel</Trans>
          </Link>
        </Button>
        {editable ? (
          <Button type="submit" disabled={!valid || progress !== null}>
            <Send aria-hidden />
            {isNew ? <Trans>Add the file</Trans> : <Trans>Save the changes</Trans>}
          </Button>
        ) : null}
        {editable && !valid ? (
          <p className="text-sm text-muted-foreground">
            <Trans>Fill in the required fields (*) with valid values to send the file.</Trans>
          </p>
        ) : null}
      </div>
    </form>
  );
}
