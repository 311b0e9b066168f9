/** The message of an error, or the thing thrown as text. */
export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}
