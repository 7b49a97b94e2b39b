import { useState } from 'react';
import { Trans } from '@lingui/react/macro';
import type { Associates } from '@/domain/additionalFiles/associates';
import type { ApplicationModel } from '@/domain/configuration/model';
import { useKeptQuery } from '@/offline/useKeptQuery';
import { overviewRead } from '../api';
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
  // The scope trees are read the first time the panel opens; a copy kept on the device stands in offline.
  const [opened, setOpened] = useState(false);
  const read = overviewRead(applicationName, true);
  const overview = useKeptQuery(read.queryKey, read.read, { enabled: opened });
  const scopes = overview.error ? 'unavailable' : overview.data ? (overview.data.referenceScopes ?? {}) : null;
  const loadScopes = (open: boolean) => {
    if (open) setOpened(true);
  };

  return (
    <Panel title={<Trans>Associated data</Trans>} onToggle={loadScopes}>
      {scopes === 'unavailable' ? (
        <AssociationUnavailable />
      ) : (
        <AssociationPanel
          applicationName={applicationName}
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
