import { useLingui } from '@lingui/react/macro';
import { localized } from '@/domain/applications/summary';
import type { ApplicationOutline } from '@/domain/applications/outline';
import type { Operation } from '@/domain/rights/operations';
import { formDay } from '@/domain/rights/periodInput';
import type { AuthorizationView } from '../api';
import { operationLabels } from '../operationLabels';

/** Per data entry, the operations an authorization gives, and where and when they are limited. */
export function PrivilegeSummary({
  authorization,
  model,
  scopeLabels,
}: {
  authorization: AuthorizationView;
  model: ApplicationOutline;
  scopeLabels: ReadonlyMap<string, string>;
}) {
  const { t, i18n } = useLingui();
  const title = (name: string) =>
    localized(model.data.find((d) => d.name === name)?.i18n.title, i18n.locale, model.defaultLanguage, name);
  const operations = (list: Operation[]) => list.map((op) => i18n._(operationLabels[op])).join(', ');
  const names = [
    ...new Set([
      ...Object.keys(authorization.authorizationForAll),
      ...Object.keys(authorization.authorizationsWithRestriction),
    ]),
  ];
  if (names.length === 0) return <p className="text-muted-foreground">{t`No right.`}</p>;
  return (
    <ul className="grid gap-1 text-sm" data-testid="privilege-summary">
      {names.map((name) => {
        const everywhere = authorization.authorizationForAll[name] ?? [];
        const limited = authorization.authorizationsWithRestriction[name] ?? [];
        return (
          <li key={name}>
            <span className="font-medium">{title(name)}</span>
            {everywhere.length ? ` — ${operations(everywhere)} (${t`everywhere`})` : null}
            {limited.map((grant, index) => {
              const places = Object.values(grant.requiredAuthorizations)
                .flat()
                .map((key) => scopeLabels.get(key) ?? key);
              const period =
                grant.fromDay || grant.toDay
                  ? `${formDay(grant.fromDay) || '…'} → ${formDay(grant.toDay) || '…'}`
                  : null;
              const where = places.join(', ') || t`everywhere`;
              return (
                <span
                  key={index}
                >{` — ${operations(grant.operationTypes)} (${period ? t`${where}; ${period}` : where})`}</span>
              );
            })}
          </li>
        );
      })}
    </ul>
  );
}
