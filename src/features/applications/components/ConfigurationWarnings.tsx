import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { TriangleAlert } from 'lucide-react';
import { describeProblem, type CodedProblem } from '@/lib/i18n/problems';
import { ProblemPlace } from './ConfigurationProblems';

/**
 * The warnings of a tested configuration, shown under its errors: how a tolerated layout was read, rules that will
 * not act. They never block; the configuration may be created with them.
 */
export function ConfigurationWarnings({ warnings }: { warnings: CodedProblem[] }) {
  const { i18n } = useLingui();
  return (
    <section aria-labelledby="configuration-warnings" className="grid gap-4" data-testid="configuration-warnings">
      <h2 id="configuration-warnings" className="flex items-center gap-2 text-xl font-semibold">
        <TriangleAlert className="size-6 text-warning" aria-hidden />
        <Plural
          value={warnings.length}
          one="# warning about this configuration"
          other="# warnings about this configuration"
        />
      </h2>
      <p className="text-sm text-muted-foreground">
        <Trans>Warnings do not prevent saving the application.</Trans>
      </p>
      <ul className="divide-y divide-border rounded-lg border border-warning/50 bg-card">
        {warnings.map((warning, index) => (
          <li key={index} className="grid gap-1 px-4 py-3" data-code={warning.code}>
            <p>{describeProblem(i18n, warning)}</p>
            <ProblemPlace problem={warning} />
          </li>
        ))}
      </ul>
    </section>
  );
}
