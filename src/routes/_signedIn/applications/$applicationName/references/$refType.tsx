import { createFileRoute } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { Alert } from '@/components/ui/alert';
import { ReferenceConsultationPage } from '@/features/references/components/ReferenceConsultationPage';
import { useApplicationModel } from '@/features/references/hooks/useApplicationModel';
import { translateServerError } from '@/lib/i18n/serverMessages';

export const Route = createFileRoute('/_signedIn/applications/$applicationName/references/$refType')({
  component: function ReferenceConsultation() {
    const { applicationName, refType } = Route.useParams();
    const { t, i18n } = useLingui();
    const { application, error } = useApplicationModel(applicationName);
    if (error) return <Alert variant="destructive">{translateServerError(i18n, error)}</Alert>;
    if (!application) return null;
    const entry = application.model.data.find((d) => d.name === refType && d.kind === 'reference');
    if (!entry) return <Alert variant="destructive">{t`The application ${applicationName} has no reference ${refType}.`}</Alert>;
    return <ReferenceConsultationPage key={`${applicationName}/${refType}`} application={application} entry={entry} />;
  },
});
