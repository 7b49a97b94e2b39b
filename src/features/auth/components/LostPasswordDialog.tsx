import { useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { AuthenticatedUser } from '@/domain/accounts/user';
import { checkConfirmation, checkEmail, checkKey, checkPassword, type FieldRule } from '@/domain/accounts/rules';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { fieldRuleText } from '@/lib/i18n/fieldRules';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { showToast } from '@/lib/toast';
import { requestConnectionKey, resetPassword, signIn } from '../api';
import { KeyField } from '@/components/form/KeyField';

interface LostPasswordDialogProps {
  initialLogin: string;
  onSignedIn(user: AuthenticatedUser): void;
}

/** Step 1 mails a connection key for login + e-mail; step 2 takes the key and the new password, then signs in. */
export function LostPasswordDialog({ initialLogin, onSignedIn }: LostPasswordDialogProps) {
  const { t, i18n } = useLingui();
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState<1 | 2>(1);
  const [login, setLogin] = useState(initialLogin);
  const [email, setEmail] = useState('');
  const [key, setKey] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);

  const problem = (rule: FieldRule | undefined) => (submitted ? fieldRuleText(i18n, rule) : undefined);
  const loginRule: FieldRule | undefined = login.trim() === '' ? 'required' : undefined;
  const emailRule = checkEmail(email);
  const keyRule = checkKey(key);
  const passwordRule = checkPassword(password);
  const confirmationRule = checkConfirmation(password, confirmation);

  function reset(nextOpen: boolean) {
    setOpen(nextOpen);
    if (nextOpen) {
      setLogin(initialLogin);
      setStep(1);
      setSubmitted(false);
      setKey('');
      setPassword('');
      setConfirmation('');
    }
  }

  async function sendKey(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (loginRule || emailRule) return;
    setBusy(true);
    try {
      await requestConnectionKey(login.trim(), email.trim());
      showToast('success', t`A connection key has been sent to ${email}.`);
      setSubmitted(false);
      setStep(2);
    } catch (error) {
      showToast('error', t`Unknown user`, translateServerError(i18n, error));
    } finally {
      setBusy(false);
    }
  }

  async function finish(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (keyRule || passwordRule || confirmationRule) return;
    setBusy(true);
    try {
      await resetPassword(login.trim(), email.trim(), key, password, confirmation);
      showToast('success', t`Your password has been changed.`);
      const user = await signIn(login.trim(), password);
      setOpen(false);
      onSignedIn(user);
    } catch (error) {
      showToast('error', translateServerError(i18n, error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={reset}>
      <DialogTrigger asChild>
        <Button type="button" variant="link" className="justify-self-center">
          <Trans>Lost password?</Trans>
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`}>
        <DialogHeader>
          <DialogTitle>
            <Trans>Lost password</Trans>
          </DialogTitle>
          <DialogDescription>
            {step === 1 ? (
              <Trans>Step 1 of 2: give your login and your e-mail address; a connection key will be sent to you.</Trans>
            ) : (
              <Trans>Step 2 of 2: type the connection key you received and choose a new password.</Trans>
            )}
          </DialogDescription>
        </DialogHeader>
        {step === 1 ? (
          <form onSubmit={sendKey} className="grid gap-4" noValidate>
            <FormField label={t`Login`} error={problem(loginRule)}>
              <Input
                value={login}
                onChange={(e) => setLogin(e.target.value)}
                autoComplete="username"
                autoCapitalize="none"
              />
            </FormField>
            <FormField label={t`E-mail`} error={problem(emailRule)}>
              <Input type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />
            </FormField>
            <DialogFooter>
              <Button type="submit" disabled={busy}>
                <Trans>Send me a key</Trans>
              </Button>
            </DialogFooter>
          </form>
        ) : (
          <form onSubmit={finish} className="grid gap-4" noValidate>
            <KeyField label={t`Connection key`} value={key} onChange={setKey} error={problem(keyRule)} />
            <FormField label={t`New password`} error={problem(passwordRule)}>
              <Input
                type="password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                autoComplete="new-password"
              />
            </FormField>
            <FormField label={t`Confirm the new password`} error={problem(confirmationRule)}>
              <Input
                type="password"
                value={confirmation}
                onChange={(e) => setConfirmation(e.target.value)}
                autoComplete="new-password"
              />
            </FormField>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setStep(1)}>
                <Trans>Back</Trans>
              </Button>
              <Button type="submit" disabled={busy}>
                <Trans>Finish</Trans>
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
