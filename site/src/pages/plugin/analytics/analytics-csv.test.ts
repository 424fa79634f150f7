import { describe, expect, it } from 'vitest';
import { analyticsCsv, csvField, csvFileName, guardFormula, toCsv } from './analytics-csv';

describe('CSV fields', () => {
  it('are quoted as RFC 4180 says: commas, quotes and line breaks inside quotes, quotes doubled', () => {
    expect(csvField('1.2.0')).toBe('1.2.0');
    expect(csvField('1,2')).toBe('"1,2"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\r')).toBe('"cr\r"');
    expect(csvField('')).toBe('');
    expect(csvField(1234)).toBe('1234');
    expect(csvField(Number.NaN)).toBe('');
  });

  it('never start a formula: text starting with = + - @ (or a tab or CR) gets a leading quote', () => {
    expect(guardFormula('=HYPERLINK("http://evil.example","x")')).toBe(
      '\'=HYPERLINK("http://evil.example","x")',
    );
    expect(guardFormula('+1')).toBe("'+1");
    expect(guardFormula('-2+3')).toBe("'-2+3");
    expect(guardFormula('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(guardFormula('\tcmd')).toBe("'\tcmd");
    expect(guardFormula('1.0=beta')).toBe('1.0=beta');
    // Guarded first, then quoted: the quote goes inside the quotes.
    expect(csvField('=1,2')).toBe(`"'=1,2"`);
    expect(csvField('=cmd|" /C calc"!A0')).toBe(`"'=cmd|"" /C calc""!A0"`);
    // Numbers the tab computes are not text and stay numbers.
    expect(csvField(-5)).toBe('-5');
  });

  it('make lines ended by CRLF', () => {
    expect(
      toCsv([
        ['a', 'b'],
        [1, 'x,y'],
      ]),
    ).toBe('a,b\r\n1,"x,y"\r\n');
  });
});

describe('the file name', () => {
  it('is <xmlId>-<measure>-<start>-<end>.csv with the id made safe', () => {
    expect(csvFileName('com.example.tool', 'downloads-count', '2026-10-27', '2026-11-25')).toBe(
      'com.example.tool-downloads-count-2026-10-27-2026-11-25.csv',
    );
    expect(csvFileName('../we ird/id', 'revenue', '2026-01-01', '2026-01-31')).toBe(
      '_we_ird_id-revenue-2026-01-01-2026-01-31.csv',
    );
    expect(csvFileName('', 'sales', '2026-01-01', '2026-01-31')).toBe(
      'plugin-sales-2026-01-01-2026-01-31.csv',
    );
  });
});

describe('the analytics CSV', () => {
  it('holds the series beside the compared period, then the breakdown, with the filters used', () => {
    const text = analyticsCsv({
      unit: 'day',
      series: [
        { name: '2026-03-01', label: '01.03.2026', value: 3 },
        { name: '2026-03-02', label: '02.03.2026', value: 0 },
      ],
      compared: [
        { name: '2026-02-27', label: '27.02.2026', value: 1 },
        { name: '2026-02-28', label: '28.02.2026', value: 2 },
      ],
      breakdown: {
        dimension: 'version',
        rows: [
          { name: '=1+1', label: '=1+1', value: 2 },
          { name: '1.0, final', label: '1.0, final', value: 1 },
        ],
      },
      seriesFilters: 'product=IU',
      breakdownFilters: 'product=IU',
    });
    expect(text.split('\r\n')).toEqual([
      'section,name,label,value,compared_name,compared_label,compared_value,filters',
      'day,2026-03-01,01.03.2026,3,2026-02-27,27.02.2026,1,product=IU',
      'day,2026-03-02,02.03.2026,0,2026-02-28,28.02.2026,2,product=IU',
      "version,'=1+1,'=1+1,2,,,,product=IU",
      'version,"1.0, final","1.0, final",1,,,,product=IU',
      '',
    ]);
  });

  it('names the currency of amounts in the value columns', () => {
    const text = analyticsCsv({
      unit: 'month',
      series: [{ name: '2026-03-01', label: '01.03.2026–31.03.2026', value: '49.00' }],
      seriesFilters: '',
      breakdownFilters: '',
      currency: 'EUR',
    });
    expect(text).toBe(
      'section,name,label,value (EUR),compared_name,compared_label,compared_value (EUR),filters\r\n' +
        'month,2026-03-01,01.03.2026–31.03.2026,49.00,,,,\r\n',
    );
  });
});
