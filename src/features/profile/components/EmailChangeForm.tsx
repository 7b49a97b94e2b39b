import { useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { validateEmailChange } from '@/domain/accounts/rules';
import type { StoredUser } from '@/domain/accounts/user';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { KeyField } from '@/components/form/KeyField';
import { fieldRuleText } from '@/lib/i18n/fieldRules';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { showToast } from '@/lib/toast';
import type { AccountResult } from '@/contract/accounts';
import { confirmEmailChange, startEmailChange } from '../api';

interface EmailChangeFormProps {
  user: StoredUser;
  onChanged(result: AccountResult): void;
}

/** Step 1: new address, its confirmation and the password → a key goes to the NEW address. Step 2: that key. */
export function EmailChangeForm({ user, onChanged }: EmailChangeFormProps) {
  const { t, i18n } = useLingui();
  const [values, setValues] = useState({ email: '', confirmation: '', password: '' });
  const [submitted, setSubmitted] = useState(false);
  const [waitingForKey, setWaitingForKey] = useState(false);
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const problems = validateEmailChange(values);
  const errorOf = (field: keyof typeof values) =>
    submitted ? fieldRuleText(i18n, problems.find((p) => p.field === field)?.rule) : undefined;

  async function sendKey(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (problems.length > 0) return;
    setBusy(true);
    try {
      await startEmailChange(user.login, values.password, values.email.trim());
      setWaitingForKey(true);
      showToast('success', t`A verification key has been sent to ${values.email}.`);
    } catch (error) {
      showToast('error', translateServerError(i18n, error));
    } finally {
      setBusy(false);
    }
  }

  async function confirm(completeKey: string) {
    setBusy(true);
    try {
      const result = await confirmEmailChange(user.login, values.password, completeKey);
      showToast('success', t`Your e-mail address has been updated.`);
      setValues({ email: '', confirmation: '', password: '' });
      setSubmitted(false);
      setWaitingForKey(false);
      setKey('');
      onChanged(result);
    } catch (error) {
      setKey('');
      showToast('error', translateServerError(i18n, error));
    } finally {
      setBusy(false);
    }
  }

  const set = (field: keyof typeof values) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));

  return (
    <form onSubmit={sendKey} className="grid max-w-md gap-4" noValidate>
      <FormField label={t`New e-mail`} error={errorOf('email')}>
        <Input
          type="email"
          value={values.email}
          onChange={set('email')}
          disabled={waitingForKey}
          autoComplete="email"
        />
      </FormField>
      <FormField label={t`Confirm the new e-mail`} error={errorOf('confirmation')}>
        <Input
          type="email"
          value={values.confirmation}
          onChange={set('confirmation')}
          disabled={waitingForKey}
          autoComplete="email"
        />
      </FormField>
      <FormField label={t`Password`} error={errorOf('password')}>
        <Input
          type="password"
          value={values.password}
          onChange={set('password')}
          disabled={waitingForKey}
          autoComplete="current-password"
        />
      </FormField>
      {waitingForKey ? (
        <>
          <Alert variant="success">
            <Trans>Type the key sent to {values.email} to make it your address.</Trans>
          </Alert>
          <KeyField
            label={t`Verification key`}
            value={key}
            onChange={setKey}
            onComplete={(k) => void confirm(k)}
            disabled={busy}
          />
          <Button type="button" variant="outline" onClick={() => setWaitingForKey(false)}>
            <Trans>Change the address</Trans>
          </Button>
        </>
      ) : (
        <Button type="submit" disabled={busy}>
          <Trans>Send the verification key</Trans>
        </Button>
      )}
    </form>
  );
}
