/*
 * The analytics tab's CSV: made in the browser from what the tab shows. Fields are quoted as RFC 4180 says
 * (a field holding a comma, a quote or a line break is quoted, its quotes doubled; lines end in CRLF), and
 * text cells that a spreadsheet would run as a formula are defused, since version names come from vendors.
 */

/** Characters that make a spreadsheet read a cell as a formula (OWASP's list: = + - @, tab and CR). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell that cannot run as a formula: a leading quote makes spreadsheets show it as text. */
export function guardFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One field: numbers as they are; text guarded, then quoted when it holds a comma, a quote or a line break. */
export function csvField(value: string | number): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = guardFormula(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows as CSV text, each line ended by CRLF. */
export function toCsv(rows: readonly (readonly (string | number)[])[]): string {
  return rows.map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}

/** `<xmlId>-<measure>-<start>-<end>.csv`, the plugin id made safe for a file name. */
export function csvFileName(xmlId: string, measure: string, start: string, end: string): string {
  const safeId = xmlId.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '') || 'plugin';
  return `${safeId}-${measure}-${start}-${end}.csv`;
}

export interface CsvPoint {
  /** What the API calls it: the period's first day, the version, the product code, the country code. */
  name: string;
  /** What the tab shows for it. */
  label: string;
  /** The value as written in the file (a count, or an amount as a decimal text). */
  value: number | string;
}

export interface AnalyticsCsvInput {
  /** The time dimension (day, week, month) and its points. */
  unit: string;
  series: readonly CsvPoint[];
  /** The compared period's points, lined up with the series by position. */
  compared?: readonly CsvPoint[] | undefined;
  /** The breakdown shown (version, product, country) and its rows. */
  breakdown?: { dimension: string; rows: readonly CsvPoint[] } | undefined;
  /** 'version=1.2; product=IU': the filters each section was counted with. */
  seriesFilters: string;
  breakdownFilters: string;
  /** Revenue's currency code: the value columns say it, as their values are amounts in it. */
  currency?: string | undefined;
}

/**
 * One table for everything shown: a `section` column says whether a row is a period of the time series (day,
 * week, month; with the compared period's point beside it) or a row of a breakdown (version, product, country).
 */
export function analyticsCsv(input: AnalyticsCsvInput): string {
  const unit = input.currency ? ` (${input.currency})` : '';
  const rows: (string | number)[][] = [
    [
      'section',
      'name',
      'label',
      `value${unit}`,
      'compared_name',
      'compared_label',
      `compared_value${unit}`,
      'filters',
    ],
  ];
  input.series.forEach((point, index) => {
    const compared = input.compared?.[index];
    rows.push([
      input.unit,
      point.name,
      point.label,
      point.value,
      compared?.name ?? '',
      compared?.label ?? '',
      compared?.value ?? '',
      input.seriesFilters,
    ]);
  });
  for (const row of input.breakdown?.rows ?? []) {
    rows.push([
      input.breakdown!.dimension,
      row.name,
      row.label,
      row.value,
      '',
      '',
      '',
      input.breakdownFilters,
    ]);
  }
  return toCsv(rows);
}

/** Saves text as a file through a link to a Blob, the way a download link would. */
export function saveTextFile(text: string, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled; the browser keeps the download going.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
