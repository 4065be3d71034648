import type { Comparison } from "../../api/compare";
import type { ToolInfo } from "../../tools/catalog";
import ComparisonBody from "../compare/ComparisonBody";

/** A comparison as a share link and an exported file show it: the compare page's body (ComparisonBody), read-only
 * (no add, remove or links), under its title. */
export default function SharedComparison({ report }: { report: { comparison: Comparison; tools: ToolInfo[] } }) {
  return (
    <div className="page compare-page shared">
      <div className="page-head">
        <h1>Comparison</h1>
      </div>
      <ComparisonBody data={report.comparison} tools={report.tools} />
    </div>
  );
}
