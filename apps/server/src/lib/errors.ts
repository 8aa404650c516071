/** The few error classes the services throw; plugins/errors.ts maps them to HTTP. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: { field: string; message: string }[],
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, field?: string) => new AppError(400, message, field ? [{ field, message }] : undefined);
export const unauthorized = (message = 'Authentication credentials were not provided or are invalid.') => new AppError(401, message);
export const forbidden = (message = 'You do not have permission to perform this action.') => new AppError(403, message);
export const notFound = (message = 'Not found.') => new AppError(404, message);
export const conflict = (message: string, field?: string) => new AppError(409, message, field ? [{ field, message }] : undefined);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, message, undefined, { retry_after_seconds: retryAfterSeconds });
