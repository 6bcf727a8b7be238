/** An error with the HTTP status a route answers; in its own module so code outside requests (CLI, workers) can throw it without loading next-auth. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
