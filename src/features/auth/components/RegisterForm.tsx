import { useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { validateRegistration, type FieldProblem } from '@/domain/accounts/rules';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { fieldRuleText } from '@/lib/i18n/fieldRules';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { showToast } from '@/lib/toast';
import { activateAccount, register } from '../api';
import { KeyField } from '@/components/form/KeyField';

type Field = 'login' | 'password' | 'confirmation' | 'email';

interface RegisterFormProps {
  /** The account is active: the page switches to the sign-in tab with this login. */
  onActivated(login: string): void;
}

export function RegisterForm({ onActivated }: RegisterFormProps) {
  const { t, i18n } = useLingui();
  const [values, setValues] = useState<Record<Field, string>>({ login: '', password: '', confirmation: '', email: '' });
  const [submitted, setSubmitted] = useState(false);
  const [registered, setRegistered] = useState(false);
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);

  const problems: FieldProblem<Field>[] = validateRegistration(values);
  const errorOf = (field: Field) =>
    submitted ? fieldRuleText(i18n, problems.find((p) => p.field === field)?.rule) : undefined;
  const bind = (field: Field) => ({
    value: values[field],
    onChange: (event: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: event.target.value })),
    disabled: registered,
  });

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (problems.length > 0) return;
    setBusy(true);
    try {
      await register(values.login.trim(), values.password, values.email.trim());
      setRegistered(true);
      showToast('success', t`Your account is created.`, t`An activation key has been sent to ${values.email}.`);
    } catch (error) {
      showToast('error', translateServerError(i18n, error));
    } finally {
      setBusy(false);
    }
  }

  async function activate(completeKey: string) {
    setBusy(true);
    try {
      await activateAccount(values.login.trim(), values.password, completeKey);
      showToast('success', t`Your account is activated.`, t`You can now sign in.`);
      onActivated(values.login.trim());
    } catch (error) {
      setKey('');
      showToast('error', translateServerError(i18n, error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <FormField label={t`Login`} error={errorOf('login')} hint={t`At least 4 characters, no spaces.`}>
        <Input {...bind('login')} autoComplete="username" autoCapitalize="none" spellCheck={false} />
      </FormField>
      <FormField label={t`Password`} error={errorOf('password')}>
        <Input type="password" {...bind('password')} autoComplete="new-password" />
      </FormField>
      <FormField label={t`Confirm the password`} error={errorOf('confirmation')}>
        <Input type="password" {...bind('confirmation')} autoComplete="new-password" />
      </FormField>
      <FormField label={t`E-mail`} error={errorOf('email')}>
        <Input type="email" {...bind('email')} autoComplete="email" />
      </FormField>
      {registered ? (
        <>
          <Alert variant="success">
            <Trans>Type the 10-character key sent to {values.email} to activate your account.</Trans>
          </Alert>
          <KeyField
            label={t`Activation key`}
            value={key}
            onChange={setKey}
            onComplete={(k) => void activate(k)}
            disabled={busy}
          />
        </>
      ) : (
        <Button type="submit" size="lg" disabled={busy}>
          <Trans>Register</Trans>
        </Button>
      )}
    </form>
  );
}
