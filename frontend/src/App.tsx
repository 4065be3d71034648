import { lazy, Suspense, useEffect, useState } from "react";
import { NavLink, Outlet, Route, Routes, useLocation } from "react-router-dom";
import { useMe } from "./api/auth";
import { useHealth } from "./api/health";
import { ErrorState, Loading } from "./components/common/States";
import UserMenu, { AdminNavLinks } from "./components/UserMenu";
import ThemeSwitch from "./components/common/ThemeSwitch";
const AuditPage = lazy(() => import("./routes/AuditPage"));
const LoginPage = lazy(() => import("./routes/LoginPage"));
const CampaignsPage = lazy(() => import("./routes/CampaignsPage"));
const CampaignPage = lazy(() => import("./routes/CampaignPage"));
const ComparePage = lazy(() => import("./routes/ComparePage"));
const NotFoundPage = lazy(() => import("./routes/NotFoundPage"));
const PlanEditorPage = lazy(() => import("./routes/PlanEditorPage"));
const PlansPage = lazy(() => import("./routes/PlansPage"));
const PolicyPage = lazy(() => import("./routes/PolicyPage"));
const PrometheusPage = lazy(() => import("./routes/PrometheusPage"));
const ProfilesPage = lazy(() => import("./routes/ProfilesPage"));
const TargetsPage = lazy(() => import("./routes/TargetsPage"));
const SchedulesPage = lazy(() => import("./routes/SchedulesPage"));
const AgentsPage = lazy(() => import("./routes/AgentsPage"));
const TrendPage = lazy(() => import("./routes/TrendPage"));

/** The pages that need a login ask the API nothing until the API says who is signed in: a signed-out browser
 * sends one request (/auth/me, whose 401 leads to the login page), never a burst of 401s. */
export function SignedIn() {
  const me = useMe();
  if (me.isSuccess) return <Outlet />;
  if (me.isError && (me.error as { status?: number }).status !== 401)
    return <ErrorState error={me.error} what="who is signed in" retry={() => void me.refetch()} />;
  return <Loading what="Checking the sign-in" />;
}

function HealthDot() {
  const { data, isError } = useHealth();
  const ok = data && data.database === "ok" && data.broker === "ok";
  const agents = data?.agents ?? [];
  const title = isError
    ? "API unreachable"
    : data
      ? `database ${data.database}, broker ${data.broker}, agents: ${agents.join(", ") || "none"} — v${data.version}`
      : "checking…";
  return (
    <span className="health" title={title} aria-label={title}>
      <span className={`dot ${isError ? "bad" : ok ? (agents.length ? "ok" : "warn") : "unknown"}`} />
      {isError ? "API down" : data ? `${agents.length} agent${agents.length === 1 ? "" : "s"}` : ""}
    </span>
  );
}

/** A new page starts at the top (filters that only change the query string keep the scroll). */
function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

/** The header's menu: inline on a wide screen; behind a Menu button on a narrow one, closed again on each new page and by Escape. */
function useMenu() {
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);
  return { open, setOpen };
}

export default function App() {
  const { open, setOpen } = useMenu();
  return (
    <div className="app">
      <ScrollToTop />
      <header className="topbar" onKeyDown={(e) => e.key === "Escape" && open && setOpen(false)}>
        <NavLink to="/" className="brand" end>
          <svg width="20" height="20" viewBox="0 0 16 16" aria-hidden="true">
            <path d="M1 14 L6 9 L10 11 L15 2" stroke="currentColor" strokeWidth="2" fill="none" />
          </svg>
          Kneeboard
        </NavLink>
        <button type="button" className="menu-toggle" aria-expanded={open} aria-controls="topbar-menu" onClick={() => setOpen(!open)}>
          <span aria-hidden="true">☰</span> Menu
        </button>
        <div id="topbar-menu" className={`topbar-menu${open ? " open" : ""}`}>
          <nav aria-label="Main">
            <NavLink to="/" end>
              Campaigns
            </NavLink>
            <NavLink to="/plans" end>
              Plans
            </NavLink>
            <NavLink to="/plans/new">New plan</NavLink>
            <NavLink to="/targets">Targets</NavLink>
            <NavLink to="/profiles">Profiles</NavLink>
            <NavLink to="/schedules">Schedules</NavLink>
            <NavLink to="/agents">Agents</NavLink>
            <NavLink to="/policy">Policy</NavLink>
            <NavLink to="/prometheus">Prometheus</NavLink>
            <AdminNavLinks />
          </nav>
          <HealthDot />
          <ThemeSwitch />
          <UserMenu />
        </div>
      </header>
      <main className="content">
        <Suspense fallback={<p className="muted pad">Loading…</p>}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route element={<SignedIn />}>
          <Route path="/" element={<CampaignsPage />} />
          <Route path="/campaigns" element={<CampaignsPage />} />
          <Route path="/campaigns/:id" element={<CampaignPage />} />
          <Route path="/compare" element={<ComparePage />} />
          <Route path="/trends" element={<TrendPage />} />
          <Route path="/plans" element={<PlansPage />} />
          <Route path="/plans/new" element={<PlanEditorPage />} />
          <Route path="/plans/:id" element={<PlanEditorPage />} />
          <Route path="/targets" element={<TargetsPage />} />
          <Route path="/profiles" element={<ProfilesPage />} />
          <Route path="/policy" element={<PolicyPage />} />
          <Route path="/prometheus" element={<PrometheusPage />} />
          <Route path="/schedules" element={<SchedulesPage />} />
          <Route path="/agents" element={<AgentsPage />} />
          <Route path="/audit" element={<AuditPage />} />
          <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
        </Suspense>
      </main>
    </div>
  );
}
