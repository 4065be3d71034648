// The export renderer: a report document (JSON) on stdin → a self-contained HTML file, or with --markdown a JSON
// object of the Markdown report's files, on stdout. backend/kneeboard/exports/renderer.py runs it (argv, no shell,
// with a timeout and size caps); `npm run build:export` bundles it to dist-export/render.mjs for plain node.
//
//   node dist-export/render.mjs [--markdown] < document.json > out
import { installDom } from "./dom";

async function readStdin(): Promise<string> {
  const chunks: string[] = [];
  const decoder = new TextDecoder();
  for await (const chunk of process.stdin) chunks.push(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
  return chunks.join("") + decoder.decode();
}

async function main(): Promise<void> {
  installDom(); // before React DOM loads (report.tsx imports it)
  const doc = JSON.parse(await readStdin());
  const { renderHtml, renderMarkdown } = await import("./report");
  const out = process.argv.includes("--markdown") ? JSON.stringify({ files: await renderMarkdown(doc) }) : await renderHtml(doc);
  process.stdout.write(out);
}

main().catch((err: unknown) => {
  process.stderr.write(`kneeboard export: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
