import { PASSWORD_MIN_LENGTH } from '@tukio/shared/limits';
import type { ReactNode } from 'react';
import { TextField, type TextFieldProps } from '../../../components/ui/form-field';

type AuthFieldProps = Omit<TextFieldProps, 'label'> & { label?: ReactNode };

/** A required username, typed as is (no capital, no spell check): label "Username", name "username". */
export function UsernameField(props: AuthFieldProps) {
  return (
    <TextField
      label="Username"
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
  return <TextField label="Password" name="password" type="password" autoComplete="current-password" required {...props} />;
}

/** A password being chosen, with its least length and the hint that says it. */
export function NewPasswordField(props: AuthFieldProps) {
  return <PasswordField autoComplete="new-password" minLength={PASSWORD_MIN_LENGTH} hint={`At least ${PASSWORD_MIN_LENGTH} characters.`} {...props} />;
}

/** The chosen password once more: label "Confirm Password", name "confirmPassword". */
export function ConfirmPasswordField(props: AuthFieldProps) {
  return <PasswordField label="Confirm Password" name="confirmPassword" autoComplete="new-password" {...props} />;
}
