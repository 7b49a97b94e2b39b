import { useId, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Table2 } from 'lucide-react';
import type { Synthesis } from '@/contract/data';
import { barsOf, lastDayOf, tickPrecision, timeOf, variablesOf, type SynthesisBar } from '@/domain/synthesis/series';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { NativeSelect } from '@/components/ui/native-select';
import { Label } from '@/components/ui/label';
import { SynthesisBars } from './SynthesisBars';
import { SynthesisTable } from './SynthesisTable';

interface SynthesisDialogProps {
  synthesis: Synthesis;
  title: string;
  /** A variable's name in the UI language (its column title). */
  variableLabel(key: string): string;
  onClose(): void;
}

/**
 * The synthesis of a data type: the lines with a value of one variable (the most filled first) over the intervals
 * of the period, as a chart with named axes and tooltips, and as a table (for screen readers, or shown on demand).
 * The counts are those of the rows the user may read: the server applies their rights.
 */
export function SynthesisDialog({ synthesis, title, variableLabel, onClose }: SynthesisDialogProps) {
  const { t, i18n } = useLingui();
  const variables = variablesOf(synthesis);
  const [chosen, setChosen] = useState(variables[0]?.key ?? '');
  const [tableShown, setTableShown] = useState(false);
  const selectId = useId();
  const variable = variables.find((v) => v.key === chosen) ?? variables[0];
  const bars = variable ? barsOf(synthesis, variable.key) : [];
  const from = timeOf(synthesis.from ?? '');
  const to = timeOf(synthesis.to ?? '');
  const day = (time: number) => i18n.date(new Date(time), { dateStyle: 'medium', timeZone: 'UTC' });
  const number = (value: number) => i18n.number(value);
  const precision = tickPrecision(to - from);
  const interval = (bar: SynthesisBar) => `${day(bar.from)} – ${day(lastDayOf(bar.from, bar.to))}`;
  const describe = (bar: SynthesisBar) => t`${interval(bar)}: ${number(bar.count)} lines`;
  const name = variable ? variableLabel(variable.key) : '';
  const firstDay = day(from);
  const lastDay = day(lastDayOf(from, to));
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent closeLabel={t`Close`} className="max-w-3xl" data-testid="synthesis-dialog">
        <DialogHeader>
          <DialogTitle>
            <Trans>Synthesis of {title}</Trans>
          </DialogTitle>
          <DialogDescription>
            <Trans>
              Lines with a value, from {firstDay} to {lastDay}, among the lines you may read.
            </Trans>
          </DialogDescription>
        </DialogHeader>
        {variables.length > 1 ? (
          <div className="grid gap-1.5">
            <Label htmlFor={selectId}>
              <Trans>Variable</Trans>
            </Label>
            <NativeSelect id={selectId} value={variable?.key} onChange={(event) => setChosen(event.target.value)}>
              {variables.map((v) => (
                <option key={v.key} value={v.key}>
                  {t`${variableLabel(v.key)} (${number(v.total)} lines)`}
                </option>
              ))}
            </NativeSelect>
          </div>
        ) : null}
        {variable ? (
          <p className="text-base" data-testid="synthesis-total">
            <Trans>
              {name}: {number(variable.total)} lines with a value
            </Trans>
          </p>
        ) : null}
        <SynthesisBars
          bars={bars}
          label={t`Lines of ${name} per interval`}
          axes={{ time: t`Start of each interval`, count: t`Lines with a value` }}
          tick={(time) => i18n.date(new Date(time), precision)}
          describe={describe}
          number={number}
        />
        <div>
          <Button variant="outline" size="sm" aria-expanded={tableShown} onClick={() => setTableShown((shown) => !shown)}>
            <Table2 aria-hidden />
            {tableShown ? <Trans>Hide the table</Trans> : <Trans>Show as a table</Trans>}
          </Button>
        </div>
        <SynthesisTable caption={t`Lines of ${name} per interval`} bars={bars} interval={interval} number={number} shown={tableShown} />
      </DialogContent>
    </Dialog>
  );
}
