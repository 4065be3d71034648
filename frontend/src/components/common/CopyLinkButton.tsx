import { useState } from "react";

export default function CopyLinkButton({ url }: { url?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    const href = url ?? window.location.href;
    try {
      await navigator.clipboard.writeText(href);
    } catch {
      // clipboard needs a secure context; fall back to a hidden textarea
      const ta = document.createElement("textarea");
      ta.value = href;
      document.body.appendChild(ta);
      ta.select();
      document.execCommand?.("copy");
      ta.remove();
    }
    setCopied(true);
    window.setTimeout(() => setCopied(false), 1500);
  };
  return (
    <button type="button" className="btn" onClick={copy} aria-live="polite">
      {copied ? "Link copied" : "Copy link"}
    </button>
  );
}
