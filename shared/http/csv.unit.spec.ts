import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { csvCell, wantsCsv } from './csv.js';

describe('csvCell', () => {
  it('quotes a cell holding a comma, a quote or a line break, doubling its quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });

  it('keeps a spreadsheet from reading a text as a formula, but not a number', () => {
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('-1,2')).toBe(`"'-1,2"`);
    expect(csvCell(-5)).toBe('-5');
  });

  it('writes absent values empty and objects as JSON', () => {
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(null)).toBe('');
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
  });
});

describe('wantsCsv', () => {
  const asking = (accept?: string) => ({ headers: accept ? { accept } : {} }) as FastifyRequest;
  it('answers CSV for format=csv, or Accept: text/csv without application/json', () => {
    expect(wantsCsv(asking(), 'csv')).toBe(true);
    expect(wantsCsv(asking('text/csv'), undefined)).toBe(true);
    expect(wantsCsv(asking('text/csv, application/json'), undefined)).toBe(false);
    expect(wantsCsv(asking('text/csv'), 'json')).toBe(false);
    expect(wantsCsv(asking(), undefined)).toBe(false);
  });
});
