import { useLingui } from '@lingui/react/macro';
import { Input } from '@/components/ui/input';
import { FormField } from '@/components/ui/form-field';
import { VERIFICATION_KEY_LENGTH, normalizeVerificationKey } from '@/domain/accounts/verificationKey';

interface KeyFieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  /** Called once the key has exactly its ten characters: the form goes on without another tap. */
  onComplete?(key: string): void;
  disabled?: boolean;
  error?: string;
  hint?: string;
}

/** One unbroken word of ten characters, typed as it was mailed; upper-cased as the user types. */
export function KeyField({ label, value, onChange, onComplete, disabled, error, hint }: KeyFieldProps) {
  const { t } = useLingui();
  return (
    <FormField label={label} error={error} hint={hint ?? t`The key has 10 characters; it was sent to you by e-mail.`}>
      <Input
        value={value}
        disabled={disabled}
        autoComplete="one-time-code"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={VERIFICATION_KEY_LENGTH + 4}
        className="font-mono text-lg tracking-[0.15em] uppercase"
        onChange={(event) => {
          const next = event.target.value.toUpperCase();
          onChange(next);
          const key = normalizeVerificationKey(next);
          if (key.length === VERIFICATION_KEY_LENGTH) onComplete?.(key);
        }}
      />
    </FormField>
  );
}
