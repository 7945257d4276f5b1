/**
 * A value computed on first use and kept; a failed attempt is forgotten so the next call retries.
 * Used for what most servers never need (the OpenAPI document, the report schema) so it costs no
 * memory until asked for.
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= load().catch((err: unknown) => {
      pending = null;
      throw err;
    });
    return pending;
  };
}
