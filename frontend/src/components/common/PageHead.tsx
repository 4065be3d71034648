import type { ReactNode } from "react";
import { useTitle } from "./useTitle";

/** A page's title (also the browser tab's: `docTitle` when the title is not plain text), an optional line under it, and its actions on the right. */
export default function PageHead({ title, note, docTitle, children }: { title: ReactNode; note?: ReactNode; docTitle?: string; children?: ReactNode }) {
  useTitle(docTitle ?? (typeof title === "string" ? title : null));
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
