import { Trans, useLingui } from '@lingui/react/macro';
import type { PeriodInput, PeriodKind, PeriodReading } from '@/domain/rights/periodInput';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';

/** The one period of the rights of a form (authorization, rights request): always, from, until, or between two days. */
export function PeriodFieldset({
  period,
  reading,
  tried,
  onChange,
}: {
  period: PeriodInput;
  reading: PeriodReading;
  tried: boolean;
  onChange(period: PeriodInput): void;
}) {
  const { t } = useLingui();
  const problem = reading.ok
    ? undefined
    : reading.field === 'order'
      ? t`The period ends before it starts.`
      : t`Write a day as dd-MM-YYYY, optionally followed by hh, hh:mm or HH:mm:ss.`;
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">
        <Trans>Period</Trans>
      </legend>
      <RadioGroup
        value={period.kind}
        onValueChange={(kind) => onChange({ ...period, kind: kind as PeriodKind })}
        aria-label={t`Period`}
      >
        <RadioGroupItem value="always" label={t`Always`} />
        <RadioGroupItem value="from" label={t`From a day`} />
        <RadioGroupItem value="to" label={t`Until a day`} />
        <RadioGroupItem value="between" label={t`Between two days`} />
      </RadioGroup>
      <div className="grid gap-3 sm:grid-cols-2">
        {period.kind === 'from' || period.kind === 'between' ? (
          <FormField
            label={t`From (dd-MM-YYYY)`}
            error={!reading.ok && reading.field === 'from' && (tried || period.from !== '') ? problem : undefined}
          >
            <Input
              value={period.from}
              inputMode="numeric"
              placeholder="01-01-2020"
              onChange={(event) => onChange({ ...period, from: event.target.value })}
            />
          </FormField>
        ) : null}
        {period.kind === 'to' || period.kind === 'between' ? (
          <FormField
            label={t`To (dd-MM-YYYY)`}
            error={!reading.ok && reading.field !== 'from' && (tried || period.to !== '') ? problem : undefined}
          >
            <Input
              value={period.to}
              inputMode="numeric"
              placeholder="31-12-2020"
              onChange={(event) => onChange({ ...period, to: event.target.value })}
            />
          </FormField>
        ) : null}
      </div>
      <p className="text-sm text-muted-foreground">
        <Trans>The period limits the rights on data with a time scope; other data are not limited by it.</Trans>
      </p>
    </fieldset>
  );
}
