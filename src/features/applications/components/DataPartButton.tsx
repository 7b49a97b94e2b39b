import { Link } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { BookOpen, Database } from 'lucide-react';
import { Button } from '@/components/ui/button';
import type { DataPart } from '../listing';

interface DataPartButtonProps {
  applicationName: string;
  part: DataPart;
  enabled: boolean;
  variant?: 'default' | 'outline';
  label?: string;
  /** Why the button is disabled: its title, and the id of the text saying it. */
  reason: { text: string; id: string };
}

/**
 * The button to an application's references or datasets. A link cannot be disabled (`disabled` on `<a>` does
 * nothing), so a part the user may not read is a real disabled button that says why.
 */
export function DataPartButton({ applicationName, part, enabled, variant, label, reason }: DataPartButtonProps) {
  const content =
    part === 'references' ? (
      <>
        <BookOpen aria-hidden />
        <Trans>References</Trans>
      </>
    ) : (
      <>
        <Database aria-hidden />
        <Trans>Datasets</Trans>
      </>
    );
  if (!enabled)
    return (
      <Button variant={variant} disabled aria-label={label} aria-describedby={reason.id} title={reason.text}>
        {content}
      </Button>
    );
  return (
    <Button asChild variant={variant}>
      <Link
        to={
          part === 'references'
            ? '/applications/$applicationName/references'
            : '/applications/$applicationName/dataTypes'
        }
        params={{ applicationName }}
        aria-label={label}
      >
        {content}
      </Link>
    </Button>
  );
}
