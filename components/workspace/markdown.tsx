/**
 * A small markdown renderer for study guidelines (codebooks): headings, paragraphs, lists,
 * pipe tables, fenced code, inline code, bold and italic, links. It builds React elements, never
 * HTML strings, so a codebook cannot inject markup.
 */
import type { ReactNode } from "react";

function inline(text: string, keyPrefix: string): ReactNode[] {
  const out: ReactNode[] = [];
  const pattern = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]+\]\((https?:\/\/[^)\s]+)\))/g;
  let last = 0;
  let match: RegExpExecArray | null;
  let n = 0;
  while ((match = pattern.exec(text))) {
    if (match.index > last) out.push(text.slice(last, match.index));
    const token = match[0];
    const key = `${keyPrefix}-${n++}`;
    if (match[1])
      out.push(
        <code key={key} className="rounded bg-slate-100 px-1">
          {token.slice(1, -1)}
        </code>,
      );
    else if (match[2]) out.push(<strong key={key}>{token.slice(2, -2)}</strong>);
    else if (match[3]) out.push(<em key={key}>{token.slice(1, -1)}</em>);
    else if (match[4])
      out.push(
        <a key={key} href={match[5]} className="text-blue-700 underline" target="_blank" rel="noreferrer">
          {token.slice(1, token.indexOf("]"))}
        </a>,
      );
    last = match.index + token.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const cells = (row: string) =>
  row
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((c) => c.trim());

export function Markdown({ source }: { source: string }) {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const blocks: ReactNode[] = [];
  let i = 0;
  let k = 0;
  while (i < lines.length) {
    const line = lines[i];
    const key = `b${k++}`;
    if (line.trim() === "") {
      i++;
      continue;
    }
    if (line.startsWith("```")) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i].startsWith("```")) body.push(lines[i++]);
      i++;
      blocks.push(
        <pre key={key} className="overflow-x-auto rounded bg-slate-100 p-2 text-xs">
          {body.join("\n")}
        </pre>,
      );
      continue;
    }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) {
      const level = heading[1].length;
      const cls = level === 1 ? "text-lg font-semibold" : level === 2 ? "text-base font-semibold" : "font-medium";
      const content = inline(heading[2], key);
      blocks.push(level === 1 ? <h3 key={key} className={`mt-3 ${cls}`}>{content}</h3> : level === 2 ? <h4 key={key} className={`mt-3 ${cls}`}>{content}</h4> : <h5 key={key} className={`mt-2 ${cls}`}>{content}</h5>);
      i++;
      continue;
    }
    if (line.trim().startsWith("|") && /^\s*\|?\s*:?-{2,}/.test(lines[i + 1] ?? "")) {
      const head = cells(line);
      i += 2;
      const rows: string[][] = [];
      while (i < lines.length && lines[i].trim().startsWith("|")) rows.push(cells(lines[i++]));
      // Not a DataTable: a table written in the Markdown of the study's guidelines, rendered as written.
      blocks.push(
        <table key={key} className="my-2 w-full border-collapse text-xs">
          <thead>
            <tr>
              {head.map((h, c) => (
                <th key={c} className="border border-slate-200 bg-slate-50 px-1 py-0.5 text-left">
                  {inline(h, `${key}h${c}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, r) => (
              <tr key={r}>
                {row.map((cell, c) => (
                  <td key={c} className="border border-slate-200 px-1 py-0.5 align-top">
                    {inline(cell, `${key}r${r}c${c}`)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>,
      );
      continue;
    }
    const bullet = /^\s*([-*]|\d+[.)])\s+/;
    if (bullet.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: string[] = [];
      while (i < lines.length && bullet.test(lines[i])) {
        let item = lines[i++].replace(bullet, "");
        while (i < lines.length && /^\s{2,}\S/.test(lines[i]) && !bullet.test(lines[i])) item += ` ${lines[i++].trim()}`;
        items.push(item);
      }
      const children = items.map((item, n) => <li key={n}>{inline(item, `${key}i${n}`)}</li>);
      blocks.push(
        ordered ? (
          <ol key={key} className="my-1 list-decimal pl-5">
            {children}
          </ol>
        ) : (
          <ul key={key} className="my-1 list-disc pl-5">
            {children}
          </ul>
        ),
      );
      continue;
    }
    const paragraph: string[] = [];
    while (i < lines.length && lines[i].trim() !== "" && !/^(#{1,4}\s|```|\s*([-*]|\d+[.)])\s)/.test(lines[i]) && !lines[i].trim().startsWith("|")) paragraph.push(lines[i++].trim());
    if (paragraph.length === 0) paragraph.push(lines[i++].trim());
    blocks.push(
      <p key={key} className="my-1">
        {inline(paragraph.join(" "), key)}
      </p>,
    );
  }
  return <div className="text-sm leading-relaxed">{blocks}</div>;
}
