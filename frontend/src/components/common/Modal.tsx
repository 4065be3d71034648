import { useEffect, type ReactNode, type RefObject } from "react";

/** While open, focus starts on `focusRef`, Escape calls `onClose`; focus goes back where it was after. */
export function useModal(open: boolean, onClose: () => void, focusRef: RefObject<HTMLElement | null>) {
  useEffect(() => {
    if (!open) return;
    const prev = document.activeElement as HTMLElement | null;
    focusRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      prev?.focus?.();
    };
  }, [open, onClose, focusRef]);
}

/** The dimmed backdrop behind a dialog; a click on it (not on the dialog) closes. */
export function Backdrop({ onClose, children }: { onClose: () => void; children: ReactNode }) {
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      {children}
    </div>
  );
}
