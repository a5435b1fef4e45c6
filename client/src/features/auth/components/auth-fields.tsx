import { PASSWORD_MIN_LENGTH } from '@tukio/shared/limits';
import type { ReactNode } from 'react';
import { TextField, type TextFieldProps } from '../../../components/ui/form-field';
import { useT } from '../../../lib/i18n';

type AuthFieldProps = Omit<TextFieldProps, 'label'> & { label?: ReactNode };

/** A required username, typed as is (no capital, no spell check): label "Username", name "username". */
export function UsernameField(props: AuthFieldProps) {
  const t = useT();
  return (
    <TextField
      label={t('auth.username')}
      name="username"
      autoComplete="username"
      autoCapitalize="none"
      spellCheck={false}
      required
      {...props}
    />
  );
}

/** The password of an existing account: label "Password", name "password". */
export function PasswordField(props: AuthFieldProps) {
  const t = useT();
  return <TextField label={t('auth.password')} name="password" type="password" autoComplete="current-password" required {...props} />;
}

/** A password being chosen, with its least length and the hint that says it. */
export function NewPasswordField(props: AuthFieldProps) {
  const t = useT();
  return <PasswordField autoComplete="new-password" minLength={PASSWORD_MIN_LENGTH} hint={t('auth.passwordHint', { min: PASSWORD_MIN_LENGTH })} {...props} />;
}

/** The chosen password once more: label "Confirm Password", name "confirmPassword". */
export function ConfirmPasswordField(props: AuthFieldProps) {
  const t = useT();
  return <PasswordField label={t('auth.confirmPassword')} name="confirmPassword" autoComplete="new-password" {...props} />;
}
