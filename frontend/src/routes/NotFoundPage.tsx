import { Link } from "react-router-dom";
import { useTitle } from "../components/common/useTitle";

/** An unknown address, or (with `what` and `back`) an id that names nothing: "Campaign 999999 not found". */
export default function NotFoundPage({ what, back = { to: "/", label: "Back to campaigns" } }: { what?: string; back?: { to: string; label: string } }) {
  const heading = what ? `${what} not found` : "Page not found";
  useTitle(heading);
  return (
    <div className="page not-found" data-testid="not-found">
      <h1>{heading}</h1>
      <p>
        {what ? `There is no ${what.replace(/^\w/, (c) => c.toLowerCase())}: it may have been deleted.` : "Nothing lives at this address."}{" "}
        <Link to={back.to}>{back.label}</Link>
      </p>
    </div>
  );
}
