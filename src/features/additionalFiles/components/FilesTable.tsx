import { Fragment, type Dispatch, type SetStateAction } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronDown, ChevronRight, Download, Eye, Trash2 } from 'lucide-react';
import { linkStatus, type LinkStatus } from '@/domain/additionalFiles/fileView';
import type { AdditionalFileType, ApplicationModel } from '@/domain/configuration/model';
import { InTheBackup } from '@/components/backup/InTheBackup';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow, stickyEnd } from '@/components/ui/table';
import { fileContentHref, type AdditionalFile, type FieldChoices } from '../api';
import { formatSize } from '@/lib/i18n/formatSize';
import { FileDetails } from './FileDetails';
import { toggled, useOpenSet } from '@/lib/useOpenSet';

interface FilesTableProps {
  applicationName: string;
  model: ApplicationModel;
  type: AdditionalFileType;
  files: AdditionalFile[];
  fieldChoices: FieldChoices;
  /** Ids of the files chosen for the selection's actions. */
  selected: Set<string>;
  onSelectedChange: Dispatch<SetStateAction<Set<string>>>;
  onDelete: (files: AdditionalFile[]) => void;
}

/** One page of files: a row each with its link status, selection box and actions; a row opens on its details. */
export function FilesTable({
  applicationName,
  model,
  type,
  files,
  fieldChoices,
  selected,
  onSelectedChange,
  onDelete,
}: FilesTableProps) {
  const { t, i18n } = useLingui();
  const open = useOpenSet();
  const chosen = files.filter((file) => selected.has(file.id));
  const date = (iso: string) => i18n.date(new Date(iso), { dateStyle: 'medium' });
  const statusLabels: Record<LinkStatus, string> = {
    application: t`Whole application`,
    data: t`Linked to data`,
    none: t`Not linked`,
  };
  return (
    <Table data-testid="files-table">
      <TableHeader>
        <TableRow>
          <TableHead className="w-12 px-1 sm:px-3">
            <span className="sr-only">{t`Details`}</span>
          </TableHead>
          <TableHead className="w-12 px-1 sm:px-3">
            <Checkbox
              aria-label={t`Select every file of the page`}
              checked={
                files.length > 0 && chosen.length === files.length ? true : chosen.length > 0 ? 'indeterminate' : false
              }
              onCheckedChange={(checked) =>
                onSelectedChange(checked === true ? new Set(files.map((file) => file.id)) : new Set())
              }
            />
          </TableHead>
          <TableHead>
            <Trans>File</Trans>
          </TableHead>
          <TableHead className="hidden sm:table-cell">
            <Trans>Size</Trans>
          </TableHead>
          <TableHead className="hidden lg:table-cell">
            <Trans>Comment</Trans>
          </TableHead>
          <TableHead className="hidden md:table-cell">
            <Trans>Updated</Trans>
          </TableHead>
          <TableHead className="hidden lg:table-cell">
            <Trans>Author</Trans>
          </TableHead>
          <TableHead className={`bg-muted ${stickyEnd}`}>
            <span className="sr-only">{t`Actions`}</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {files.map((file) => {
          const status = linkStatus(file);
          return (
            <Fragment key={file.id}>
              <TableRow data-testid="file-row" data-name={file.fileName}>
                <TableCell className="px-1 sm:px-3">
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-expanded={open.isOpen(file.id)}
                    aria-label={t`Details of ${file.fileName}`}
                    onClick={() => open.toggle(file.id)}
                  >
                    {open.isOpen(file.id) ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
                  </Button>
                </TableCell>
                <TableCell className="px-1 sm:px-3">
                  <Checkbox
                    aria-label={t`Select ${file.fileName}`}
                    checked={selected.has(file.id)}
                    onCheckedChange={() => onSelectedChange((set) => toggled(set, file.id))}
                  />
                </TableCell>
                <TableCell className="min-w-0 break-words">
                  <span className="font-medium">{file.fileName}</span>
                  <span className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
                    <Badge variant={status === 'application' ? 'default' : status === 'data' ? 'secondary' : 'outline'}>
                      {statusLabels[status]}
                    </Badge>
                    <span className="sm:hidden">{formatSize(i18n, file.size)}</span>
                    <span className="md:hidden">{date(file.updateDate)}</span>
                  </span>
                </TableCell>
                <TableCell className="hidden whitespace-nowrap sm:table-cell">{formatSize(i18n, file.size)}</TableCell>
                <TableCell className="hidden max-w-64 lg:table-cell">
                  <span className="line-clamp-2">{file.comment}</span>
                </TableCell>
                <TableCell className="hidden whitespace-nowrap md:table-cell">{date(file.updateDate)}</TableCell>
                <TableCell className="hidden lg:table-cell">
                  {file.ownerLogin ?? '—'}
                  <InTheBackup login={file.originalOwner} />
                </TableCell>
                <TableCell className={`whitespace-nowrap bg-card px-1 sm:px-3 ${stickyEnd}`}>
                  <Button asChild variant="ghost" size="icon">
                    <Link
                      to="/applications/$applicationName/additionalFiles/$additionalFileName/$additionalFileId"
                      params={{ applicationName, additionalFileName: type.name, additionalFileId: file.id }}
                      aria-label={file.mayEdit ? t`Consult or modify ${file.fileName}` : t`Consult ${file.fileName}`}
                    >
                      <Eye aria-hidden />
                    </Link>
                  </Button>
                  <Button asChild variant="ghost" size="icon">
                    <a
                      href={fileContentHref(applicationName, file)}
                      download={file.fileName}
                      aria-label={t`Download ${file.fileName}`}
                    >
                      <Download aria-hidden />
                    </a>
                  </Button>
                  {file.mayDelete ? (
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={t`Delete ${file.fileName}`}
                      onClick={() => onDelete([file])}
                    >
                      <Trash2 aria-hidden />
                    </Button>
                  ) : null}
                </TableCell>
              </TableRow>
              {open.isOpen(file.id) ? (
                <TableRow data-testid="file-details">
                  <TableCell colSpan={8}>
                    <FileDetails file={file} status={status} type={type} model={model} fieldChoices={fieldChoices} />
                  </TableCell>
                </TableRow>
              ) : null}
            </Fragment>
          );
        })}
      </TableBody>
    </Table>
  );
}
