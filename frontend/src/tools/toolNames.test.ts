// The tool contract's promise on the UI side: no code outside src/tools/ names a tool.
// Every registered tool's name (from the GET /tools fixture) is looked for as a string literal in src/.
import { describe, expect, it } from "vitest";
import { TOOLS } from "./__fixtures__";
import openapi from "../../openapi.json";

/** Field names of the API's schemas: a tool named like one ("process", a target's server process) is not looked for. */
const FIELDS = new Set(Object.values(openapi.components.schemas as Record<string, { properties?: object }>).flatMap((s) => Object.keys(s.properties ?? {})));

/** Every TypeScript source under src/, by path relative to this folder ("../routes/…", "./catalog.ts"). */
const SOURCES = import.meta.glob<string>(["../**/*.ts", "../**/*.tsx"], { query: "?raw", import: "default", eager: true });

/** The one module allowed to know tools by name, and files that are not the UI's code. */
const allowed = (path: string) =>
  path.startsWith("./") || path.startsWith("../tools/") || /\.test\.tsx?$/.test(path) || path.includes("__fixtures__") || path.endsWith("/schema.d.ts");

describe("tool names", () => {
  it("are read from every source file", () => {
    expect(Object.keys(SOURCES)).toContain("../routes/PlanEditorPage.tsx");
  });
  it("appear as string literals only in src/tools/", () => {
    const names = [...new Set(["dnsperf", "wrk", "iperf3", "devsim", "mpstat", "ping", ...TOOLS.map((t) => t.name)])].filter((n) => !FIELDS.has(n));
    expect(names).toContain("mpstat");
    const literal = new RegExp(`(["'\`])(${names.join("|")})\\1`);
    const offenders = Object.entries(SOURCES)
      .filter(([path]) => !allowed(path))
      .flatMap(([path, text]) => text.split("\n").flatMap((line, i) => (literal.test(line) ? [`${path.slice(3)}:${i + 1}: ${line.trim()}`] : [])));
    expect(offenders).toEqual([]);
  });
});
