import { useId, useState } from 'react';
import { Trans } from '@lingui/react/macro';
import { ChevronDown, ChevronRight } from 'lucide-react';
import type { ApplicationOutline } from '@/domain/applications/outline';
import type { Rights } from '@/domain/rights/access';
import type { PeriodInput, PeriodReading } from '@/domain/rights/periodInput';
import type { RightsTableState } from '@/domain/rights/rightsTable';
import { Button } from '@/components/ui/button';
import type { Grantable } from '../api';
import type { RequestOptions } from '../requestsApi';
import { PeriodFieldset } from './PeriodFieldset';
import { RightsTable } from './RightsTable';

interface RequestRightsSectionProps {
  /** The application's name, under which the parts of large scope trees are read. */
  application: string;
  title: string;
  model: ApplicationOutline;
  options: RequestOptions;
  granter: Rights;
  /** A request asks for reading only: the table shows that column alone, as for public authorizations. */
  readingOnly: boolean;
  rights: RightsTableState;
  onRightsChange(state: RightsTableState): void;
  period: PeriodInput;
  reading: PeriodReading;
  onPeriodChange(period: PeriodInput): void;
  tried: boolean;
  problem?: string;
}

/** The collapsible part of a request's screen that says which rights, where and when (spec §2). */
export function RequestRightsSection({
  application,
  title,
  model,
  options,
  granter,
  readingOnly,
  rights,
  onRightsChange,
  period,
  reading,
  onPeriodChange,
  tried,
  problem,
}: RequestRightsSectionProps) {
  const [open, setOpen] = useState(true);
  const regionId = useId();
  const timed = model.data.some((entry) => entry.authorization?.timeScope != null);
  const grantable: Grantable = { ...options, users: [], publicAuthorizations: [] };
  return (
    <section className="grid min-w-0 grid-cols-1 gap-3 sm:rounded-lg sm:border sm:border-border sm:p-4 [&>*]:min-w-0">
      <h2 className="text-lg font-semibold">
        <Button
          type="button"
          variant="ghost"
          className="-ml-2 h-auto justify-start whitespace-normal px-2 text-left wrap-anywhere"
          aria-expanded={open}
          aria-controls={regionId}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
          {title}
        </Button>
      </h2>
      <div id={regionId} hidden={!open} className="grid min-w-0 grid-cols-1 gap-4 [&>*]:min-w-0">
        {timed ? <PeriodFieldset period={period} reading={reading} tried={tried} onChange={onPeriodChange} /> : null}
        <fieldset className="grid min-w-0 gap-2">
          <legend className="mb-1 text-sm font-medium">
            <Trans>Rights</Trans>
          </legend>
          <RightsTable
            application={application}
            use="request"
            model={model}
            grantable={grantable}
            granter={granter}
            state={rights}
            onChange={onRightsChange}
            isPublic={readingOnly}
          />
        </fieldset>
      </div>
      {tried && problem ? (
        <p role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      ) : null}
    </section>
  );
}
