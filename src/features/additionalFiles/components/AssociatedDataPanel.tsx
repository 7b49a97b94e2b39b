import { useState } from 'react';
import { Trans } from '@lingui/react/macro';
import type { Associates } from '@/domain/additionalFiles/associates';
import type { ApplicationModel } from '@/domain/configuration/model';
import { fetchOverview, type FilesOverview } from '../api';
import { AssociationPanel, AssociationUnavailable } from './AssociationPanel';
import { Panel } from './Panel';

interface AssociatedDataPanelProps {
  applicationName: string;
  model: ApplicationModel;
  associates: Associates;
  disabled: boolean;
  onChange: (next: Associates) => void;
}

/** The data the file is attached to, in a panel that reads the scope trees from the server the first time it opens. */
export function AssociatedDataPanel({
  applicationName,
  model,
  associates,
  disabled,
  onChange,
}: AssociatedDataPanelProps) {
  const [scopes, setScopes] = useState<FilesOverview['referenceScopes'] | null | 'unavailable'>(null);

  function loadScopes(open: boolean) {
    if (!open || scopes !== null) return;
    fetchOverview(applicationName, true).then(
      (overview) => setScopes(overview.value.referenceScopes ?? {}),
      () => setScopes('unavailable'),
    );
  }

  return (
    <Panel title={<Trans>Associated data</Trans>} onToggle={loadScopes}>
      {scopes === 'unavailable' ? (
        <AssociationUnavailable />
      ) : (
        <AssociationPanel
          model={model}
          referenceScopes={scopes}
          associates={associates}
          disabled={disabled}
          onChange={onChange}
        />
      )}
    </Panel>
  );
}
