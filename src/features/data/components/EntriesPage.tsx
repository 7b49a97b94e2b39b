import { useMemo, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Eye, Info, Layers, Upload } from 'lucide-react';
import { localized } from '@/domain/applications/summary';
import type { DataEntry } from '@/domain/configuration/model';
import { Breadcrumb } from '@/components/layout/Breadcrumb';
import { NoRightsNotice } from '@/components/layout/NoRightsNotice';
import { OfflineNotice } from '@/components/layout/OfflineNotice';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { useApplicationView, withConfiguration, type LoadedApplication } from '@/offline/useApplicationModel';
import { filterTree, referenceTree, tagsInUse, type TreeNode } from '../referenceTree';
import { useEditedCsvUpload } from '../useEditedCsvUpload';
import { CsvUploadDialog } from './CsvUploadDialog';
import { ReferenceDetails } from './ReferenceDetails';
import { SynthesisChart } from './SynthesisChart';

/**
 * The references (or the data types) of an application as a tree, with their line counts, consultation, details,
 * CSV upload, and for versioned data types the way to their deposits.
 */
export function EntriesPage({
  applicationName,
  kind,
  editedItem,
}: {
  applicationName: string;
  kind: DataEntry['kind'];
  /** A refused upload reopened from the pending changes: its entry's upload dialog opens to replace it. */
  editedItem?: number;
}) {
  const { t, i18n } = useLingui();
  const { application: viewed, error, reload } = useApplicationView(applicationName);
  const application = useMemo(() => viewed && withConfiguration(viewed), [viewed]);
  const [tags, setTags] = useState<Set<string>>(new Set());
  const [details, setDetails] = useState<DataEntry | null>(null);
  const [uploading, setUploading] = useState<DataEntry | null>(null);
  const edited = useEditedCsvUpload(editedItem);
  const [editClosed, setEditClosed] = useState(false);
  const tree = useMemo(() => (application ? filterTree(referenceTree(application.model, kind), tags) : []), [application, tags, kind]);

  if (error) return <Alert variant="destructive">{translateServerError(i18n, error)}</Alert>;
  if (!viewed) return null;
  const appTitle = localized(viewed.view.title, i18n.locale, viewed.view.defaultLanguage, viewed.view.name);
  if (!application) return <NoRightsNotice applicationName={viewed.view.name}>{t`You may not read the data of ${appTitle}.`}</NoRightsNotice>;
  const { view, model } = application;
  const used = tagsInUse(model, kind);
  const isReference = kind === 'reference';
  const editedEntry = edited && !editClosed ? model.data.find((entry) => entry.name === edited.entryName) : undefined;

  return (
    <div>
      <Breadcrumb
        label={t`Breadcrumb`}
        crumbs={[{ label: t`Applications`, href: '/applications' }, { label: appTitle, href: `/applications/${view.name}` }, { label: isReference ? t`References` : t`Data types` }]}
      />
      <PageHeader title={isReference ? <Trans>References of {appTitle}</Trans> : <Trans>Data types of {appTitle}</Trans>} />
      {application.offlineSince ? <OfflineNotice fetchedAt={application.offlineSince} /> : null}
      {used.length > 0 ? (
        <div className="mb-4 flex flex-wrap items-center gap-2" role="group" aria-label={t`Filter by tag`}>
          {used.map((tag) => {
            const label = localized(model.domainTags.find((d) => d.name === tag)?.labels, i18n.locale, model.defaultLanguage, tag);
            const on = tags.has(tag);
            return (
              <Button
                key={tag}
                size="sm"
                variant={on ? 'default' : 'outline'}
                aria-pressed={on}
                onClick={() => setTags((current) => new Set(on ? [...current].filter((x) => x !== tag) : [...current, tag]))}
              >
                {label}
              </Button>
            );
          })}
        </div>
      ) : null}
      <Card>
        <CardContent className="pt-5">
          {tree.length === 0 ? (
            <p className="py-6 text-center text-muted-foreground">
              <Trans>Nothing matches these tags.</Trans>
            </p>
          ) : (
            <ul role="tree" aria-label={isReference ? t`References` : t`Data types`} className="grid gap-1">
              {tree.map((node) => (
                <ReferenceNode key={node.entry.name} node={node} depth={0} application={application} onDetails={setDetails} onUpload={setUploading} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <ReferenceDetails entry={details} application={application} onClose={() => setDetails(null)} />
      {uploading ? (
        <CsvUploadDialog
          application={application}
          entry={uploading}
          onClose={(stored) => {
            setUploading(null);
            if (stored) reload();
          }}
        />
      ) : editedEntry ? (
        <CsvUploadDialog
          application={application}
          entry={editedEntry}
          replaces={edited}
          onClose={(stored) => {
            setEditClosed(true);
            if (stored) reload();
          }}
        />
      ) : null}
    </div>
  );
}

interface NodeProps {
  node: TreeNode;
  depth: number;
  application: LoadedApplication;
  onDetails(entry: DataEntry): void;
  onUpload(entry: DataEntry): void;
}

function ReferenceNode({ node, depth, application, onDetails, onUpload }: NodeProps) {
  const { t, i18n } = useLingui();
  const { view, model } = application;
  const { entry } = node;
  const title = localized(entry.i18n.title, i18n.locale, model.defaultLanguage, entry.name);
  // Counts come only for entries the user reads whole: a part's total is on the entry's page.
  const count = view.lineCounts?.[entry.name];
  const isReference = entry.kind === 'reference';
  const versioned = entry.submission.strategy === 'OA_VERSIONING';
  const canWrite = isReference ? view.canWriteReference : view.canWriteDatatype;
  return (
    <li role="treeitem" aria-expanded={node.children.length > 0 ? true : undefined} aria-label={title} data-testid="reference-node" data-name={entry.name}>
      <div className="flex flex-wrap items-center gap-2 rounded-md py-1 pr-1 hover:bg-muted" style={{ paddingLeft: `${depth * 1.5 + 0.5}rem` }}>
        <span className="min-w-40 flex-1 font-medium wrap-anywhere">{title}</span>
        {count !== undefined ? (
          <Badge variant="secondary" aria-label={t`${count} lines`}>
            {i18n.number(count)}
          </Badge>
        ) : null}
        {!isReference ? <SynthesisChart applicationName={view.name} entry={entry} defaultLanguage={model.defaultLanguage} title={title} /> : null}
        <Button asChild variant="outline" size="sm">
          {isReference ? (
            <Link to="/applications/$applicationName/references/$refType" params={{ applicationName: view.name, refType: entry.name }} aria-label={t`Consult ${title}`}>
              <Eye aria-hidden />
              <Trans>Consult</Trans>
            </Link>
          ) : (
            <Link to="/applications/$applicationName/dataTypes/$dataType" params={{ applicationName: view.name, dataType: entry.name }} aria-label={t`Consult ${title}`}>
              <Eye aria-hidden />
              <Trans>Consult</Trans>
            </Link>
          )}
        </Button>
        {versioned && canWrite ? (
          <Button asChild variant="outline" size="sm">
            <Link to="/applications/$applicationName/dataVersioning/$dataType" params={{ applicationName: view.name, dataType: entry.name }} aria-label={t`Deposits of ${title}`}>
              <Layers aria-hidden />
              <Trans>Deposits</Trans>
            </Link>
          </Button>
        ) : null}
        {!versioned && canWrite ? (
          <Button variant="outline" size="sm" onClick={() => onUpload(entry)} aria-label={t`Load a CSV file into ${title}`}>
            <Upload aria-hidden />
            <Trans>Load</Trans>
          </Button>
        ) : null}
        <Button variant="ghost" size="icon" onClick={() => onDetails(entry)} aria-label={t`Details of ${title}`}>
          <Info aria-hidden />
        </Button>
      </div>
      {node.children.length > 0 ? (
        <ul role="group" className="grid gap-1">
          {node.children.map((child) => (
            <ReferenceNode key={child.entry.name} node={child} depth={depth + 1} application={application} onDetails={onDetails} onUpload={onUpload} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}
