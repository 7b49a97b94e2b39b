import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { CircleAlert } from 'lucide-react';
import { describeProblem, type CodedProblem } from '@/lib/i18n/problems';

/** The section a problem belongs to: a data entry, a root section, or the file as a whole. */
function sectionOf(path: string | undefined): string {
  const segments = (path ?? '').split(' > ').filter(Boolean);
  if (segments[0] === 'OA_data' && segments[1]) return `OA_data > ${segments[1]}`;
  return segments[0] ?? '';
}

/** Where a problem or warning is: its code, its path and its position in the file. */
export function ProblemPlace({ problem }: { problem: CodedProblem }) {
  return (
    <p className="text-sm text-muted-foreground">
      <code className="rounded bg-muted px-1">{problem.code}</code>
      {problem.path ? <span> · {problem.path}</span> : null}
      {problem.line ? (
        <span>
          {' '}
          ·{' '}
          <Trans>
            line {problem.line}, column {problem.column ?? 1}
          </Trans>
        </span>
      ) : null}
    </p>
  );
}

/** Every problem of a configuration, grouped by section, each with its place in the file. */
export function ConfigurationProblems({ problems }: { problems: CodedProblem[] }) {
  const { t, i18n } = useLingui();
  const groups = new Map<string, CodedProblem[]>();
  for (const problem of problems) {
    const key = sectionOf(problem.path ?? (problem.params?.path as string | undefined));
    groups.set(key, [...(groups.get(key) ?? []), problem]);
  }
  const title = (section: string) => {
    if (section === '') return t`The whole file`;
    if (section.startsWith('OA_data > ')) return t`Data entry ${section.slice('OA_data > '.length)}`;
    const names: Record<string, string> = {
      OA_application: t`Application`,
      OA_tags: t`Tags`,
      OA_version: t`Format version`,
      OA_rightsRequest: t`Rights request form`,
      OA_additionalFiles: t`Additional files`,
      OA_data: t`Data entries`,
    };
    return names[section] ?? section;
  };
  return (
    <section aria-labelledby="configuration-problems" className="grid gap-4" data-testid="configuration-problems">
      <h2 id="configuration-problems" className="flex items-center gap-2 text-xl font-semibold text-destructive">
        <CircleAlert className="size-6" aria-hidden />
        <Plural
          value={problems.length}
          one="# problem in this configuration"
          other="# problems in this configuration"
        />
      </h2>
      {[...groups].map(([section, list]) => (
        <div key={section} className="rounded-lg border border-destructive/30 bg-card">
          <h3 className="border-b border-border px-4 py-3 font-semibold">{title(section)}</h3>
          <ul className="divide-y divide-border">
            {list.map((problem, index) => (
              <li key={index} className="grid gap-1 px-4 py-3" data-code={problem.code}>
                <p>{describeProblem(i18n, problem)}</p>
                <ProblemPlace problem={problem} />
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
