import { useLingui } from '@lingui/react/macro';
import type { ApplicationOutline } from '@/domain/applications/outline';
import { localized } from '@/domain/applications/summary';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import type { RequestFilters } from '../hooks/useRightsRequestsList';

interface RightsRequestsFiltersProps {
  model: ApplicationOutline;
  /** Whoever treats requests also searches them by requester and by form field. */
  treats: boolean;
  filters: RequestFilters;
  onChange: (change: Partial<RequestFilters>) => void;
}

/** The status filter, and for those who treat requests a search on the requester or comment and on one form field. */
export function RightsRequestsFilters({ model, treats, filters, onChange }: RightsRequestsFiltersProps) {
  const { t, i18n } = useLingui();
  const fields = model.rightsRequest?.fields ?? [];
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div className="w-44">
        <FormField label={t`Status`}>
          <NativeSelect
            value={filters.status}
            onChange={(event) => onChange({ status: event.target.value as RequestFilters['status'] })}
          >
            <option value="all">{t`All`}</option>
            <option value="open">{t({ id: 'rightsRequest.status.open', message: 'Open' })}</option>
            <option value="close">{t`Treated`}</option>
          </NativeSelect>
        </FormField>
      </div>
      {treats ? (
        <div className="min-w-48 flex-1">
          <FormField label={t`Requester or comment`}>
            <Input
              type="search"
              value={filters.search}
              onChange={(event) => onChange({ search: event.target.value })}
            />
          </FormField>
        </div>
      ) : null}
      {treats && fields.length ? (
        <>
          <div className="w-48">
            <FormField label={t`Form field`}>
              <NativeSelect value={filters.field} onChange={(event) => onChange({ field: event.target.value })}>
                <option value="">{t`Any field`}</option>
                {fields.map((f) => (
                  <option key={f.name} value={f.name}>
                    {localized(f.i18n.title, i18n.locale, model.defaultLanguage, f.name)}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
          </div>
          <div className="min-w-40 flex-1">
            <FormField label={t`Field contains`}>
              <Input
                type="search"
                value={filters.fieldValue}
                disabled={!filters.field}
                onChange={(event) => onChange({ fieldValue: event.target.value })}
              />
            </FormField>
          </div>
        </>
      ) : null}
    </div>
  );
}
