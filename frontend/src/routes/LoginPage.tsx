import "../auth/auth.css";
import { useState, type FormEvent } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { useLogin } from "../api/auth";
import { ApiError } from "../api/client";
import Field from "../components/common/Field";
import { safeNext } from "../auth/redirect";
import { useTitle } from "../components/common/useTitle";

/** Sign in, then go back to the page that was asked for (`?next=`, same-site paths only). */
export default function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const login = useLogin();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const next = safeNext(params.get("next"));
  useTitle("Log in");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    login.mutate({ username, password }, { onSuccess: () => navigate(next, { replace: true }) });
  };
  const error = login.error instanceof ApiError && login.error.status === 401 ? "Wrong username or password." : login.error?.message;
  return (
    <form className="card login" aria-label="Log in" onSubmit={submit}>
      <h1>Log in</h1>
      <Field label="Username">
        <input name="username" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} required autoFocus />
      </Field>
      <Field label="Password">
        <input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
      </Field>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="btn primary" disabled={login.isPending}>
        {login.isPending ? "Logging in…" : "Log in"}
      </button>
      <p className="muted small">make up wrote the first admin's password to .run/admin.env.</p>
    </form>
  );
}
