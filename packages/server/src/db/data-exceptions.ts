/**
 * PostgreSQL's data exceptions (SQLSTATE class 22) are values a request brought that a column or a cast
 * cannot take: an id past the integer range (`/api/plugins/2147483648`), `NaN` where a number goes, a zero
 * byte in a text. Routes check what they know; whatever slips past reaches the database, which refuses it.
 * The error handler answers these 400 with {@link dataExceptionMessage}, not 500: found by fuzzing the
 * route table (packages/server/faults/fuzz.ts).
 */
const MESSAGES: Record<string, string> = {
  '22003': 'A number in the request is out of range.',
  '22P02': 'A value in the request does not have the expected form.',
  '22021': 'The request contains text that cannot be stored (a zero byte or a broken character).',
  '22P05': 'The request contains text that cannot be stored (a zero byte or a broken character).',
  '22007': 'A date in the request is not valid.',
  '22008': 'A date in the request is out of range.',
  '22001': 'A value in the request is too long.',
  '2201B': 'A pattern in the request is not valid.',
};

/** The message for a data exception (in the error or one it was caused by), or undefined for anything else. */
export function dataExceptionMessage(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  for (let current = error; current && typeof current === 'object' && !seen.has(current);) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) {
      return MESSAGES[code] ?? 'A value in the request cannot be used.';
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
