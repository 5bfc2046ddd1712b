/**
 * The server names the field a validation message is about as a prefix ("password: This
 * password is too common. ..."). A form shows such a message under that field, without the
 * prefix; any other message goes in the form's alert.
 */
export function fieldErrorOf<F extends string>(message: string, fields: readonly F[]): { field: F; text: string } | null {
  const match = /^([A-Za-z]+): (.+)$/s.exec(message);
  if (!match) return null;
  const field = fields.find((name) => name === match[1]);
  return field ? { field, text: match[2]! } : null;
}
