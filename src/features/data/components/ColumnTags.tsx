import { useLingui } from '@lingui/react/macro';
import { localized } from '@/domain/applications/summary';
import type { ApplicationModel } from '@/domain/configuration/model';
import { Button } from '@/components/ui/button';

/** A toggle per domain tag of the entry's columns: the columns of a tag switched off are hidden. */
export function ColumnTags({ model, tags, hidden, onChange }: { model: ApplicationModel; tags: string[]; hidden: string[]; onChange: (hidden: string[]) => void }) {
  const { t, i18n } = useLingui();
  return (
    <div className="mb-3 flex flex-wrap items-center gap-2" role="group" aria-label={t`Columns by tag`}>
      {tags.map((tag) => {
        const shown = !hidden.includes(tag);
        return (
          <Button key={tag} size="sm" variant={shown ? 'secondary' : 'outline'} aria-pressed={shown} onClick={() => onChange(shown ? [...hidden, tag] : hidden.filter((x) => x !== tag))}>
            {localized(model.domainTags.find((d) => d.name === tag)?.labels, i18n.locale, model.defaultLanguage, tag)}
          </Button>
        );
      })}
    </div>
  );
}
