import type { ReactNode } from "react";
import ConfirmDialog from "./ConfirmDialog";

/** Asks before deleting `item` (a plan, target, profile…); the mutation's error shows in the dialog. */
export default function DeleteDialog<T extends { id: number; name: string }>({
  noun,
  item,
  del,
  onClose,
  children,
}: {
  noun: string;
  item: T | null;
  del: { isPending: boolean; isError: boolean; error: Error | null; mutate: (id: number, opts: { onSuccess: () => void }) => void };
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <ConfirmDialog
      open={!!item}
      title={`Delete ${noun} ${item?.name ?? ""}?`}
      confirmLabel={`Delete ${noun}`}
      cancelLabel="Keep it"
      danger
      busy={del.isPending}
      onClose={onClose}
      onConfirm={() => item && del.mutate(item.id, { onSuccess: onClose })}
    >
      {children}
      {del.isError && <p className="error-text">{del.error?.message}</p>}
    </ConfirmDialog>
  );
}

/** The Delete button of a table row. */
export function DeleteButton({ label, onClick }: { label?: string; onClick: () => void }) {
  return (
    <button type="button" className="btn small danger-outline" aria-label={label} onClick={onClick}>
      Delete
    </button>
  );
}
