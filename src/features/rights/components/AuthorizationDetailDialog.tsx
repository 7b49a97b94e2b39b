import { useLingui } from '@lingui/react/macro';
import type { ApplicationModel } from '@/domain/configuration/model';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import type { AuthorizationView } from '../api';
import { PrivilegeSummary } from './PrivilegeSummary';

/** An authorization whole: its description, its users with their addresses and the rights it gives. */
export function AuthorizationDetailDialog({
  detail,
  model,
  scopeLabels,
  onClose,
}: {
  detail: AuthorizationView | null;
  model: ApplicationModel;
  scopeLabels: ReadonlyMap<string, string>;
  onClose: () => void;
}) {
  const { t } = useLingui();
  return (
    <Dialog open={detail !== null} onOpenChange={(value) => !value && onClose()}>
      <DialogContent closeLabel={t`Close`} className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{detail?.name}</DialogTitle>
          <DialogDescription>{detail?.description}</DialogDescription>
        </DialogHeader>
        {detail ? (
          <>
            <p>
              <span className="font-medium">{t`Users:`}</span>{' '}
              {detail.isPublic
                ? t`everyone`
                : detail.users.map((u) => (u.email === undefined ? u.login : `${u.login} (${u.email})`)).join(', ')}
            </p>
            <PrivilegeSummary authorization={detail} model={model} scopeLabels={scopeLabels} />
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
