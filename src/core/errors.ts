/**
 * The seven error codes of the public contract. Every non-2xx response body is
 * `{code, message, details?}`; a more specific cause travels in `details.reason`.
 */
const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UNPROCESSABLE_ENTITY: 422,
  INTERNAL_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_MESSAGE: Record<ErrorCode, string> = {
  VALIDATION_ERROR: 'Request validation failed',
  UNAUTHORIZED: 'Authentication required',
  FORBIDDEN: 'Insufficient permissions',
  NOT_FOUND: 'Resource not found',
  CONFLICT: 'Resource already exists',
  UNPROCESSABLE_ENTITY: 'Request could not be processed',
  INTERNAL_ERROR: 'Internal server error',
};

export interface ValidationIssue {
  path: (string | number)[];
  message: string;
}

export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    readonly details?: unknown,
    message: string = ERROR_MESSAGE[code],
    statusCode: number = ERROR_STATUS[code],
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = statusCode;
  }
}

export const validationError = (issues: ValidationIssue[], statusCode = 400) =>
  new AppError('VALIDATION_ERROR', issues, ERROR_MESSAGE.VALIDATION_ERROR, statusCode);

/** One bad field, for rules a JSON schema cannot express. */
export const invalidField = (path: (string | number)[], message: string) =>
  validationError([{ path, message }]);

export const notFound = (details?: Record<string, unknown>) => new AppError('NOT_FOUND', details);

export const conflict = (reason: string, detail?: Record<string, unknown>) =>
  new AppError('CONFLICT', { reason, ...detail });

/** Well formed, but cannot be carried out; `explanation` says why in words a person can act on. */
export const unprocessable = (reason: string, explanation: string, detail?: Record<string, unknown>) =>
  new AppError('UNPROCESSABLE_ENTITY', { reason, explanation, ...detail });

export const forbidden = (details?: Record<string, unknown>) => new AppError('FORBIDDEN', details);
export const unauthorized = () => new AppError('UNAUTHORIZED');
