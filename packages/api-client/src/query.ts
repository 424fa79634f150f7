/** A value of a query parameter; arrays repeat the parameter (`tags=a&tags=b`), the form the server reads. */
export type QueryValue =
  string | number | boolean | null | undefined | readonly (string | number | boolean)[];

export type QueryParameters = Readonly<Record<string, QueryValue>>;

/** `?a=1&b=x&b=y`, or '' when nothing is set; undefined, null and empty arrays are left out. */
export function buildQuery(parameters: QueryParameters | undefined): string {
  if (!parameters) return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value as readonly (string | number | boolean)[]) search.append(name, String(item));
    } else {
      search.append(name, String(value));
    }
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
