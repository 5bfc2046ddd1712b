/**
 * The error codes of the product's error catalogue (spec §8), with their HTTP statuses.
 * Domain code throws {@link DomainError}; the server maps the code to the status.
 */
export const ERROR_STATUS = {
  'invalid-argument': 400,
  unauthenticated: 401,
  'permission-denied': 403,
  'not-found': 404,
  aborted: 409,
  'resource-exhausted': 429,
  cancelled: 499,
  internal: 500,
  unimplemented: 501,
  unavailable: 503,
  'deadline-exceeded': 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS | 'unknown';

export class DomainError extends Error {
  constructor(
    readonly code: Exclude<ErrorCode, 'unknown'>,
    message: string,
    /** What the log is told and the caller is not (an `internal` error's cause, naming the field). */
    readonly logDetails?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** Finds the catalogue code for an HTTP status, as the client does. */
export function codeForStatus(status: number): ErrorCode {
  for (const [code, value] of Object.entries(ERROR_STATUS)) {
    if (value === status) return code as ErrorCode;
  }
  return 'unknown';
}
