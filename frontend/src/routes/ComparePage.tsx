import { useState, type FormEvent } from "react";
import { Link } from "react-router-dom";
import { compareExportUrl, useCompare } from "../api/compare";
import { comparisonShare } from "../api/shares";
import CopyLinkButton from "../components/common/CopyLinkButton";
import GrafanaLink from "../components/common/GrafanaLink";
import PageHead from "../components/common/PageHead";
import ShareButton from "../components/share/ShareButton";
import { Empty, QueryView } from "../components/common/States";
import ComparisonBody from "../components/compare/ComparisonBody";
import { useTools } from "../tools/useTools";
import { param, useUrlState } from "../urlState";

/** The campaigns compared, in order (?c=12&c=9@1%20queue): the first is the reference. */
const COMPARE_VIEW = { c: param.list() };

export default function ComparePage() {
  const [view, setView] = useUrlState(COMPARE_VIEW);
  const selectors = view.c;
  const cmp = useCompare(selectors);
  const tools = useTools();
  const [adding, setAdding] = useState("");

  // the selection is a view (Back returns to the previous one); the charts' options in the URL stay as they are
  const setSelectors = (next: string[]) => setView({ c: next });
  const add = (e: FormEvent) => {
    e.preventDefault();
    const v = adding.trim();
    if (v && !selectors.includes(v)) setSelectors([...selectors, v]);
    setAdding("");
  };

  return (
    <div className="page compare-page">
      <PageHead title="Compare">
        <form onSubmit={add} className="inline-form">
          <label>
            <span className="sr-only">Add a campaign id</span>
            <input value={adding} onChange={(e) => setAdding(e.target.value)} placeholder="add campaign id (or id@variant)" size={28} />
          </label>
          <button type="submit" className="btn">
            Add
          </button>
        </form>
        <CopyLinkButton />
        {selectors.length >= 2 && (
          <>
            <a className="btn" href={compareExportUrl(selectors)} download title="one self-contained HTML file: no script, no network, prints cleanly">
              Export HTML
            </a>
            <a className="btn" href={compareExportUrl(selectors, "md.zip")} download title="Markdown tables with the charts as SVG files, zipped">
              Export Markdown
            </a>
          </>
        )}
        <ShareButton {...comparisonShare(selectors)} />
        <GrafanaLink href={cmp.data?.grafana_url} />
      </PageHead>
      {selectors.length < 2 ? (
        <Empty>
          Pick two or more campaigns on the <Link to="/">campaigns page</Link>, or add their ids above.
        </Empty>
      ) : (
        <QueryView query={cmp} loading="Comparing">
          {(data) => (
            <ComparisonBody
              data={data}
              tools={tools.data}
              live={{
                link: (id, variant, text) => <Link to={variant != null ? `/campaigns/${id}?variant=${encodeURIComponent(variant)}` : `/campaigns/${id}`}>{text}</Link>,
                actions: (key, i) => (
                  <>
                    {i > 0 && (
                      <button type="button" className="btn small" onClick={() => setSelectors([selectors[i], ...selectors.filter((_, j) => j !== i)])}>
                        Make reference
                      </button>
                    )}
                    <button
                      type="button"
                      className="btn small"
                      disabled={selectors.length <= 2}
                      onClick={() => setSelectors(selectors.filter((_, j) => j !== i))}
                      aria-label={`Remove #${key} from the comparison`}
                    >
                      Remove
                    </button>
                  </>
                ),
              }}
            />
          )}
        </QueryView>
      )}
    </div>
  );
}
