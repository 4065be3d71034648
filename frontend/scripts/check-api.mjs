// Regenerate the API types into a temp file and fail when they differ from src/api/schema.d.ts.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dir = mkdtempSync(join(tmpdir(), "kb-api-"));
const out = join(dir, "schema.d.ts");
try {
  execFileSync(join(root, "node_modules/.bin/openapi-typescript"), ["openapi.json", "-o", out], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  const fresh = readFileSync(out, "utf8");
  const committed = readFileSync(join(root, "src/api/schema.d.ts"), "utf8");
  if (fresh !== committed) {
    console.error("src/api/schema.d.ts is out of date with openapi.json: run `npm run gen:api`.");
    process.exit(1);
  }
  console.log("src/api/schema.d.ts matches openapi.json");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
