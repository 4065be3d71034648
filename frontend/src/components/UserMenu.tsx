import "../auth/auth.css";
import { NavLink, useLocation, useNavigate } from "react-router-dom";
import { useLogout, useMe } from "../api/auth";

/** The signed-in user's name and role, and a Log out button (nothing on the login page). */
export default function UserMenu() {
  const { pathname } = useLocation();
  const onLogin = pathname.startsWith("/login");
  const me = useMe();
  const logout = useLogout();
  const navigate = useNavigate();
  if (onLogin || !me.data) return null;
  return (
    <span className="user-menu" data-testid="user-menu">
      <span className="user-name">{me.data.username}</span> <span className="muted small">({me.data.role})</span>
      <button type="button" className="btn small" onClick={() => logout.mutate(undefined, { onSuccess: () => navigate("/login") })}>
        Log out
      </button>
    </span>
  );
}

/** The nav link to the audit log, for admins only. */
export function AdminNavLinks() {
  const me = useMe();
  return me.data?.role === "admin" ? <NavLink to="/audit">Audit</NavLink> : null;
}
