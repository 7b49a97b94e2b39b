import { useId, useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { FormField } from '@/components/ui/form-field';
import { Alert } from '@/components/ui/alert';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { ApiError } from '@/lib/api/apiError';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { fieldRuleText } from '@/lib/i18n/fieldRules';
import { showToast } from '@/lib/toast';
import { activateAccount, signIn } from '../api';
import { useSignedInNavigation } from '../hooks/useSignedInNavigation';
import { KeyField } from '@/components/form/KeyField';
import { LostPasswordDialog } from './LostPasswordDialog';
import { WaitingChangesNotice } from './WaitingChangesNotice';

interface SignInFormProps {
  applicationName?: string;
  initialLogin?: string;
}

export function SignInForm({ applicationName, initialLogin = '' }: SignInFormProps) {
  const { t, i18n } = useLingui();
  const [login, setLogin] = useState(initialLogin);
  const [password, setPassword] = useState('');
  const [key, setKey] = useState('');
  const [needsKey, setNeedsKey] = useState(false);
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const goOn = useSignedInNavigation(applicationName);
  const rememberId = useId();

  const loginError = submitted && login.trim() === '' ? fieldRuleText(i18n, 'required') : undefined;
  const passwordError = submitted && password === '' ? fieldRuleText(i18n, 'required') : undefined;

  async function attempt() {
    setBusy(true);
    try {
      goOn(await signIn(login.trim(), password, applicationName, remember));
    } catch (error) {
      if (error instanceof ApiError && error.status === 402) {
        // The account waits for its key: a fresh one was mailed, the key field appears.
        setNeedsKey(true);
        showToast('warning', translateServerError(i18n, error));
      } else if (error instanceof ApiError && error.status === 401) {
        showToast('error', t`Unknown user`, translateServerError(i18n, error));
      } else {
        showToast('error', translateServerError(i18n, error));
      }
    } finally {
      setBusy(false);
    }
  }

  async function activateThenSignIn(completeKey: string) {
    setBusy(true);
    try {
      await activateAccount(login.trim(), password, completeKey);
      showToast('success', t`Your account is activated.`);
      setNeedsKey(false);
      setKey('');
      await attempt();
    } catch (error) {
      setKey('');
      showToast('error', translateServerError(i18n, error));
    } finally {
      setBusy(false);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (login.trim() === '' || password === '') return;
    void attempt();
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <FormField label={t`Login`} error={loginError}>
        <Input
          value={login}
          onChange={(e) => setLogin(e.target.value)}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
        />
      </FormField>
      <WaitingChangesNotice login={login.trim()} />
      <FormField label={t`Password`} error={passwordError}>
        <Input
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="current-password"
        />
      </FormField>
      <div className="grid grid-cols-[auto_1fr] items-start gap-x-3 gap-y-1">
        <Checkbox
          id={rememberId}
          checked={remember}
          onCheckedChange={(value) => setRemember(value === true)}
          aria-describedby={`${rememberId}-hint`}
        />
        <Label htmlFor={rememberId} className="pt-0.5 text-base leading-snug">
          <Trans>Keep me signed in on this device</Trans>
        </Label>
        <p id={`${rememberId}-hint`} className="col-start-2 text-sm text-muted-foreground">
          <Trans>
            For field outings: the session lasts weeks without use. Not on a shared computer. You can end it from your
            profile.
          </Trans>
        </p>
      </div>
      {needsKey ? (
        <>
          <Alert variant="warning">
            <Trans>Your account needs its activation key. A new one has just been sent to your e-mail address.</Trans>
          </Alert>
          <KeyField
            label={t`Activation key`}
            value={key}
            onChange={setKey}
            onComplete={(k) => void activateThenSignIn(k)}
            disabled={busy}
          />
        </>
      ) : null}
      <Button type="submit" disabled={busy} size="lg">
        <Trans>Sign in</Trans>
      </Button>
      <LostPasswordDialog initialLogin={login} onSignedIn={goOn} />
    </form>
  );
}
