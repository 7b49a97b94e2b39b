import { Trans } from '@lingui/react/macro';
import type { IntervalState } from '@/domain/rows/intervals';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/cn';

export interface IntervalDraft {
  from?: string;
  to?: string;
}

interface IntervalFilterProps {
  name: string;
  title: string;
  kind: 'date' | 'number';
  draft: IntervalDraft;
  state: IntervalState;
  onChange(next: IntervalDraft): void;
}

/** Why an interval typed in the form filters nothing, said under it (the query leaves it out meanwhile). */
function IntervalProblem({ state }: { state: IntervalState }) {
  // Equal ends filter nothing on the screen either, as the spec says (the API reads them as one value).
  if (state === 'reversed' || state === 'equal') return <Trans>The end of the interval must come after its start.</Trans>;
  if (state === 'incomplete') return <Trans>Give both ends of the interval to filter.</Trans>;
  if (state === 'notNumbers') return <Trans>Both ends of the interval must be numbers.</Trans>;
  if (state === 'notDates') return <Trans>Both ends of the interval must be dates.</Trans>;
  return null;
}

/** The two ends of a number or date filter; one that would be ignored is marked and explained instead. */
export function IntervalFilter({ name, title, kind, draft, state, onChange }: IntervalFilterProps) {
  const problemId = `${name}-interval-problem`;
  const invalid = state === 'reversed' || state === 'equal' || state === 'notNumbers' || state === 'notDates';
  const end = (which: 'from' | 'to') => (
    <div className={cn('grid min-w-0 grow gap-1', kind === 'date' ? 'basis-40' : 'basis-24')}>
      <Label htmlFor={`${name}-${which}`} className="text-xs text-muted-foreground">
        {which === 'from' ? <Trans>from</Trans> : <Trans>to</Trans>}
      </Label>
      <Input
        id={`${name}-${which}`}
        type={kind}
        className="min-w-0"
        value={draft[which] ?? ''}
        aria-invalid={invalid || undefined}
        aria-describedby={state === 'usable' || state === 'empty' ? undefined : problemId}
        onChange={(event) => onChange({ ...draft, [which]: event.target.value || undefined })}
      />
    </div>
  );
  return (
    <fieldset className="grid gap-1">
      <legend className="mb-1 text-sm font-medium">{title}</legend>
      {/* Two date fields side by side need more room than a column may have: the second one goes under. */}
      <div className="flex flex-wrap gap-2">
        {end('from')}
        {end('to')}
      </div>
      {state === 'usable' || state === 'empty' ? null : (
        <p id={problemId} role="status" className={cn('text-sm', invalid ? 'text-destructive' : 'text-muted-foreground')}>
          <IntervalProblem state={state} />
        </p>
      )}
    </fieldset>
  );
}
