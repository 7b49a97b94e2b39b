import { Trans, useLingui } from '@lingui/react/macro';
import { kiloBytes } from '../periods';
import {
  VersionActions,
  VersionDeposited,
  VersionPublished,
  type PeriodVersion,
  type VersionHandlers,
} from './VersionParts';

/**
 * The versions of a page as cards, one under the other, for screens too narrow for the table: there, the table
 * showed the number and id beside the buttons, its dates and authors scrolled out of sight, each row tall and blank.
 */
export function VersionCards({ versions, ...handlers }: { versions: PeriodVersion[] } & VersionHandlers) {
  const { t, i18n } = useLingui();
  return (
    <ul className="grid gap-3" data-testid="versions">
      {versions.map((version) => (
        <li
          key={version.id}
          title={version.comment || undefined}
          className="min-w-0 rounded-lg border border-border bg-card p-3"
          data-testid="version-row"
          data-published={version.published}
        >
          <p className="font-medium">
            <Trans>Version {version.number}</Trans>{' '}
            <code className="text-sm text-muted-foreground">{version.id.slice(0, 8)}</code>
          </p>
          <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
            <dt className="text-muted-foreground">
              <Trans>Deposited</Trans>
            </dt>
            <dd className="min-w-0 wrap-anywhere">
              <VersionDeposited version={version} />
            </dd>
            <dt className="text-muted-foreground">
              <Trans>Published</Trans>
            </dt>
            <dd className="min-w-0 wrap-anywhere">
              {version.published ? null : t`not published`}
              <VersionPublished version={version} />
            </dd>
            <dt className="text-muted-foreground">
              <Trans>Size (kB)</Trans>
            </dt>
            <dd>{i18n.number(kiloBytes(version.size))}</dd>
          </dl>
          <div className="mt-2 flex items-center gap-2 ps-2">
            <VersionActions version={version} {...handlers} />
          </div>
        </li>
      ))}
    </ul>
  );
}
