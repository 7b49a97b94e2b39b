import { useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { validatePasswordChange } from '@/domain/accounts/rules';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { fieldRuleText } from '@/lib/i18n/fieldRules';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { showToast } from '@/lib/toast';
import { changePassword } from '../api';

const empty = { current: '', password: '', confirmation: '' };

export function PasswordChangeForm({ login }: { login: string }) {
  const { t, i18n } = useLingui();
  const [values, setValues] = useState(empty);
  const [submitted, setSubmitted] = useState(false);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const problems = validatePasswordChange(values);
  const errorOf = (field: keyof typeof values) =>
    submitted ? fieldRuleText(i18n, problems.find((p) => p.field === field)?.rule) : undefined;
  const set = (field: keyof typeof values) => (event: { target: { value: string } }) => {
    setDone(false);
    setValues((v) => ({ ...v, [field]: event.target.value }));
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (problems.length > 0) return;
    setBusy(true);
    try {
      await changePassword(login, values.current, values.password, values.confirmation);
      setValues(empty);
      setSubmitted(false);
      setDone(true);
      showToast('success', t`Your password has been changed.`);
    } catch (error) {
      showToast('error', translateServerError(i18n, error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="grid max-w-md gap-4" noValidate>
      {done ? (
        <Alert variant="success">
          <Trans>Your password has been changed. Your other devices have been signed out.</Trans>
        </Alert>
      ) : null}
      <FormField label={t`Current password`} error={errorOf('current')}>
        <Input type="password" value={values.current} onChange={set('current')} autoComplete="current-password" />
      </FormField>
      <FormField label={t`New password`} error={errorOf('password')}>
        <Input type="password" value={values.password} onChange={set('password')} autoComplete="new-password" />
      </FormField>
      <FormField label={t`Confirm the new password`} error={errorOf('confirmation')}>
        <Input type="password" value={values.confirmation} onChange={set('confirmation')} autoComplete="new-password" />
      </FormField>
      <Button type="submit" disabled={busy}>
        <Trans>Change the password</Trans>
      </Button>
    </form>
  );
}
