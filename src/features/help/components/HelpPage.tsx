import { Trans, useLingui } from '@lingui/react/macro';
import { Download } from 'lucide-react';
import { Breadcrumb } from '@/components/layout/Breadcrumb';
import { PageHeader } from '@/components/layout/PageHeader';
import { Button } from '@/components/ui/button';

/** The help document in the interface language, in an 800 × 500 frame, with a download for small screens. */
export function HelpPage() {
  const { t, i18n } = useLingui();
  const file = `/help.${i18n.locale === 'en' ? 'en' : 'fr'}.pdf`;
  return (
    <div>
      <Breadcrumb
        label={t`Breadcrumb`}
        crumbs={[{ label: t`Applications`, href: '/applications' }, { label: t`Help` }]}
      />
      <PageHeader
        title={<Trans>Help</Trans>}
        actions={
          <Button asChild variant="outline">
            <a href={file} download>
              <Download aria-hidden />
              <Trans>Download the help (PDF)</Trans>
            </a>
          </Button>
        }
      />
      <iframe
        title={t`Help document`}
        src={file}
        width={800}
        height={500}
        className="max-w-full rounded-lg border border-border bg-card"
      />
    </div>
  );
}
