import { useState, type MouseEvent } from "react";
import { useFormat, useLocale, useT } from "~/i18n/hooks.ts";

/** The filters of the reports list an export carries over. */
const FILTERS = ["search", "from", "to", "formId", "groupId", "flagged"] as const;

/**
 * "Download these results" as CSV (with the separator the page's language expects in Excel
 * first) and XLSX: plain links to GET /api/reports/export with the list's filters, so the
 * browser's own download works without JavaScript. With it, a long export shows how much has
 * arrived so far, then is saved under the server's file name.
 */
export function ExportLinks({ params }: { params: URLSearchParams }) {
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  const [progress, setProgress] = useState<{ bytes: number } | { failed: true } | null>(null);
  const filters = new URLSearchParams();
  for (const name of FILTERS) {
    const value = params.get(name);
    if (value) filters.set(name, value);
  }
  const href = (extra: Record<string, string>) => `/api/reports/export?${new URLSearchParams([...filters, ...Object.entries(extra)])}`;
  // Excel opens a CSV with the separator of the system's language: a comma in English, a
  // semicolon where the decimal separator is a comma.
  const commaFirst = locale === "en";
  const csv = [
    { key: "comma", label: t.reports.exportCsvComma, href: href({ format: "csv", delimiter: "comma" }) },
    { key: "semicolon", label: t.reports.exportCsvSemicolon, href: href({ format: "csv", delimiter: "semicolon" }) },
  ];
  const links = [...(commaFirst ? csv : csv.reverse()), { key: "xlsx", label: t.reports.exportXlsx, href: href({ format: "xlsx" }) }];

  async function download(event: MouseEvent<HTMLAnchorElement>, url: string) {
    if (typeof ReadableStream === "undefined" || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    setProgress({ bytes: 0 });
    try {
      const response = await fetch(url);
      if (!response.ok || !response.body) throw new Error(String(response.status));
      const chunks: BlobPart[] = [];
      let bytes = 0;
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        bytes += value.byteLength;
        setProgress({ bytes });
      }
      const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "reports";
      const save = document.createElement("a");
      save.href = URL.createObjectURL(new Blob(chunks, { type: response.headers.get("content-type") ?? "" }));
      save.download = name;
      save.click();
      setTimeout(() => URL.revokeObjectURL(save.href), 60_000);
      setProgress(null);
    } catch {
      setProgress({ failed: true });
    }
  }

  return (
    <section aria-labelledby="export-heading" className="rounded-xl border border-slate-200 bg-white px-4 py-4 shadow-sm sm:px-5 print:hidden">
      <h2 id="export-heading" className="font-semibold text-slate-900">
        {t.reports.exportTitle}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t.reports.exportHint}</p>
      <ul className="mt-3 flex flex-wrap gap-2">
        {links.map((link) => (
          <li key={link.key}>
            <a
              href={link.href}
              download
              onClick={(event) => download(event, link.href)}
              className="inline-flex items-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50"
            >
              {link.label}
            </a>
          </li>
        ))}
      </ul>
      <p className="mt-2 text-sm text-slate-700" role="status" aria-live="polite">
        {progress === null
          ? ""
          : "failed" in progress
            ? t.reports.exportFailed
            : t.reports.exporting(format.number(progress.bytes / 1_000_000, { style: "unit", unit: "megabyte", maximumFractionDigits: 1 }))}
      </p>
    </section>
  );
}
