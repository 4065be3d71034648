import type { ReactNode } from "react";

/** A page's title, an optional line under it, and its actions on the right. */
export default function PageHead({ title, note, children }: { title: ReactNode; note?: ReactNode; children?: ReactNode }) {
  return (
    <div className="page-head">
      {note ? (
        <div>
          <h1>{title}</h1>
          {note}
        </div>
      ) : (
        <h1>{title}</h1>
      )}
      {children && <div className="actions">{children}</div>}
    </div>
  );
}
