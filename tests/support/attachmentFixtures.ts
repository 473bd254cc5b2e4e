// Small real files for attachment tests: a 1×1 PNG, and a one-page PDF written by hand
// (a valid cross-reference table, Helvetica text) so pdf.js extracts real text from it.

/** A 1×1 red PNG. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/** A one-page PDF whose text is `text` (ASCII without parentheses or backslashes). */
export function pdfWithText(text: string): Buffer {
  const stream = `BT /F1 24 Tf 72 700 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/**
 * A PDF of `pages` pages, each `linesPerPage` lines of text (ASCII without parentheses or
 * backslashes) made by `line(page, line)`: big files for the parse budget and the bench.
 */
export function pdfWithPages(pages: number, linesPerPage: number, line: (page: number, line: number) => string): Buffer {
  const parts: string[] = ['%PDF-1.4\n'];
  let length = parts[0].length;
  const offsets: number[] = [];
  const add = (body: string) => {
    offsets.push(length);
    const object = `${offsets.length} 0 obj\n${body}\nendobj\n`;
    parts.push(object);
    length += object.length;
  };
  add('<< /Type /Catalog /Pages 2 0 R >>');
  const kids = Array.from({ length: pages }, (_, p) => `${4 + 2 * p} 0 R`).join(' ');
  add(`<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`);
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (let p = 0; p < pages; p++) {
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${5 + 2 * p} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`);
    const lines = Array.from({ length: linesPerPage }, (_, l) => `(${line(p, l)}) Tj T*`).join('\n');
    const stream = `BT /F1 8 Tf 10 TL 36 760 Td\n${lines}\nET`;
    add(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  }
  const xref = length;
  parts.push(`xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n`);
  parts.push(offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join(''));
  parts.push(`trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}
