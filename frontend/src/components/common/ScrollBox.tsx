import type { ReactNode } from "react";

/**
 * A box whose content scrolls sideways inside it when wider than the screen (a table on a phone): a labelled
 * region that takes keyboard focus, so the arrow keys scroll it.
 */
export default function ScrollBox({ label, className, testId, children }: { label: string; className?: string; testId?: string; children: ReactNode }) {
  return (
    <div className={className ? `table-scroll ${className}` : "table-scroll"} role="region" aria-label={label} tabIndex={0} data-testid={testId}>
      {children}
    </div>
  );
}
