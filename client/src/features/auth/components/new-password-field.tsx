import { TextField, type TextFieldProps } from '../../../components/ui/field';

/** The server's password rules (server/auth/password-policy.ts), as the form shows them. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
export const PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters, and not a common password.`;

/** A field for choosing a password: the rules' limits, their hint, and the browser's password manager. */
export function NewPasswordField(props: Omit<TextFieldProps, 'type' | 'autoComplete' | 'required' | 'minLength' | 'maxLength' | 'hint'>) {
  return (
    <TextField
      type="password"
      autoComplete="new-password"
      required
      minLength={PASSWORD_MIN_LENGTH}
      maxLength={PASSWORD_MAX_LENGTH}
      hint={PASSWORD_HINT}
      {...props}
    />
  );
}
