/**
 * The form's messages per field: all of them from the shared schema before sending (so a
 * person sees every problem at once), or the one the server named (`"email: Enter a ..."`).
 */
import { CONTACT_FIELDS, ContactFields, type ContactField } from '../../../../events/contact';

export type FieldErrors = Partial<Record<ContactField, string>>;

export function validateContactFields(values: Record<ContactField, string>): FieldErrors {
  const checked = ContactFields.safeParse(values);
  if (checked.success) return {};
  const errors: FieldErrors = {};
  for (const issue of checked.error.issues) {
    const field = issue.path[0];
    if (isContactField(field) && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

/** A server message about one field, split into the field and its message; null otherwise. */
export function fieldErrorFromServer(message: string): FieldErrors | null {
  const match = /^(\w+): (.+)$/s.exec(message);
  if (!match || !isContactField(match[1])) return null;
  return { [match[1]]: match[2] };
}

/** The first field, in the form's order, that has a message. */
export function firstInvalidField(errors: FieldErrors): ContactField | null {
  return CONTACT_FIELDS.find((field) => errors[field]) ?? null;
}

function isContactField(value: unknown): value is ContactField {
  return typeof value === 'string' && (CONTACT_FIELDS as string[]).includes(value);
}
