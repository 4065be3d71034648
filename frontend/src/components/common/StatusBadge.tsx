export default function StatusBadge({ status, partial }: { status: string; partial?: boolean }) {
  return (
    <span className={`badge status-${status}`} data-status={status}>
      {status}
      {partial ? " (partial)" : ""}
    </span>
  );
}
