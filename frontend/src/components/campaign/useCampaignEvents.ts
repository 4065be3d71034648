import { useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { eventsUrl } from "../../api/campaigns";
import { keys } from "../../api/keys";
import type { CampaignOut, ProgressEvent, SampleEvent } from "../../api/types";
import { appendBounded } from "../../charts/downsample";

export interface LiveSample {
  t: number;
  values: Record<string, number | null>;
}

/**
 * Follow a campaign's server-sent events while it is active: progress goes straight into the
 * campaign query's cache, samples into a bounded per-point buffer, and `point`/`status`/`end`
 * refetch the campaign and its points.
 */
export function useCampaignEvents(id: number, active: boolean) {
  const qc = useQueryClient();
  const [samples, setSamples] = useState<Record<number, LiveSample[]>>({});
  const [connected, setConnected] = useState(false);
  const pending = useRef<SampleEvent[]>([]);

  useEffect(() => {
    if (!active || typeof EventSource === "undefined") return;
    const es = new EventSource(eventsUrl(id));
    const invalidate = () => {
      qc.invalidateQueries({ queryKey: keys.campaign(id), exact: true });
      qc.invalidateQueries({ queryKey: keys.campaignPoints(id) });
    };
    const parse = <T,>(e: MessageEvent): T | null => {
      try {
        return JSON.parse(e.data) as T;
      } catch {
        return null;
      }
    };
    es.onopen = () => setConnected(true);
    es.onerror = () => setConnected(false);
    es.addEventListener("progress", (e) => {
      const data = parse<ProgressEvent>(e as MessageEvent);
      if (!data) return;
      qc.setQueryData<CampaignOut>(keys.campaign(id), (old) =>
        old ? { ...old, status: data.status ?? old.status, progress: data.progress ?? old.progress, summary: data.summary ?? old.summary } : old,
      );
    });
    es.addEventListener("sample", (e) => {
      const data = parse<SampleEvent>(e as MessageEvent);
      if (data && (data.series ?? "point") === "point") pending.current.push(data);
    });
    es.addEventListener("point", () => invalidate());
    es.addEventListener("status", () => invalidate());
    es.addEventListener("end", () => {
      invalidate();
      qc.invalidateQueries({ queryKey: keys.campaigns, exact: false });
      es.close();
      setConnected(false);
    });
    // batch sample updates: at most a few renders per second however fast samples arrive
    const flush = window.setInterval(() => {
      if (!pending.current.length) return;
      const batch = pending.current;
      pending.current = [];
      setSamples((old) => {
        const next = { ...old };
        for (const s of batch) next[s.point_id] = appendBounded(next[s.point_id] ?? [], { t: s.t, values: s.values });
        return next;
      });
    }, 250);
    return () => {
      window.clearInterval(flush);
      es.close();
      setConnected(false);
    };
  }, [id, active, qc]);

  return { samples, connected };
}
