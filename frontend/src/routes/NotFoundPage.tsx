import { Link } from "react-router-dom";

export default function NotFoundPage() {
  return (
    <div className="page">
      <h1>Page not found</h1>
      <p>
        Nothing lives at this address. <Link to="/">Back to campaigns</Link>
      </p>
    </div>
  );
}
