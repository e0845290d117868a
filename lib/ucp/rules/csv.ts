/**
 * A strict reader of the UCP test-data CSV files (RFC 4180 with a header row): a field is
 * either bare (up to the next comma; a quote inside it is a character, as in promotions'
 * `["bouquet_roses"]`) or wholly quoted with `""` for a quote. No CSV library is installed, and
 * these files need nothing more. A row whose field count differs from the header's is refused.
 */
export class CsvError extends Error {}

function splitLine(line: string, lineNo: number, file: string): string[] {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= line.length) throw new CsvError(`${file}:${lineNo}: unterminated quoted field`);
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += line[i++];
      }
      fields.push(value);
      if (i < line.length && line[i] !== ',') {
        throw new CsvError(`${file}:${lineNo}: text after a quoted field`);
      }
    } else {
      const end = line.indexOf(',', i);
      fields.push(line.slice(i, end === -1 ? line.length : end));
      i = end === -1 ? line.length : end;
    }
    if (i >= line.length) return fields;
    i++; // the comma
  }
}

/** The rows of a CSV text as records keyed by the header's names. */
export function parseCsv(text: string, file: string): Record<string, string>[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = splitLine(lines[0] ?? '', 1, file).map((h) => h.trim());
  if (!header.length || header.some((h) => !h)) throw new CsvError(`${file}: no header row`);
  const rows: Record<string, string>[] = [];
  lines.slice(1).forEach((line, index) => {
    if (!line.trim()) return;
    const fields = splitLine(line, index + 2, file);
    if (fields.length !== header.length) {
      throw new CsvError(
        `${file}:${index + 2}: ${fields.length} fields where the header has ${header.length}`,
      );
    }
    rows.push(Object.fromEntries(header.map((name, i) => [name, fields[i]!.trim()])));
  });
  return rows;
}
