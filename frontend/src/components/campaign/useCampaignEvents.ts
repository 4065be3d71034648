import { useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { eventsUrl } from "../../api/campaigns";
import { keys } from "../../api/keys";
import type { CampaignOut, Point, PointEvent, ProgressEvent, SampleEvent, SearchEvent } from "../../api/types";
import { appendBounded } from "../../charts/downsample";
import { openLiveStream, type StreamState } from "./liveStream";

export interface LiveSample {
  t: number;
  values: Record<string, number | null>;
}

/**
 * Follow a campaign's server-sent events while it is active: progress goes straight into the
 * campaign query's cache, samples into a bounded per-point buffer, and `point`/`status`/`end`
 * refetch the campaign and its points. A point that ends (`point` with a final status) has its stored
 * samples and evidence refetched, and at `end` every point's are: charts that read them (stability,
 * timeline) are whole in the tab that watched, with no reload. A dropped stream reconnects by itself (see liveStream.ts):
 * `stream` says where it stands, a reconnect refetches the campaign and its points, and while the
 * stream stays down the campaign is polled every 2 s.
 */
export function useCampaignEvents(id: number, active: boolean) {
  const qc = useQueryClient();
  const [samples, setSamples] = useState<Record<number, LiveSample[]>>({});
  const [stream, setStream] = useState<StreamState>("connecting");
  const [searches, setSearches] = useState<Record<string, SearchEvent[]>>({});
  const pending = useRef<SampleEvent[]>([]);

  useEffect(() => {
    if (!active || typeof EventSource === "undefined") return;
    const refetchCampaign = () => qc.invalidateQueries({ queryKey: keys.campaign(id), exact: true });
    const invalidate = () => {
      refetchCampaign();
      qc.invalidateQueries({ queryKey: keys.campaignPoints(id) });
    };
    // a point's queries (evidence, samples of any series) share the ["points", id] prefix
    const refetchPoint = (pointId: number) => qc.invalidateQueries({ queryKey: keys.point(pointId) });
    const refetchAllPoints = () => {
      for (const p of qc.getQueryData<Point[]>(keys.campaignPoints(id)) ?? []) refetchPoint(p.id);
    };
    const parse = <T,>(e: MessageEvent): T | null => {
      try {
        return JSON.parse(e.data) as T;
      } catch {
        return null;
      }
    };
    const live = openLiveStream(eventsUrl(id), {
      onState: setStream,
      onReconnect: invalidate,
      onPoll: refetchCampaign,
      on: {
        progress: (e) => {
          const data = parse<ProgressEvent>(e);
          if (!data) return;
          qc.setQueryData<CampaignOut>(keys.campaign(id), (old) =>
            old ? { ...old, status: data.status ?? old.status, progress: data.progress ?? old.progress, summary: data.summary ?? old.summary } : old,
          );
        },
        sample: (e) => {
          const data = parse<SampleEvent>(e);
          if (data && (data.series ?? "point") === "point") pending.current.push(data);
        },
        point: (e) => {
          invalidate();
          const data = parse<PointEvent>(e);
          if (data && data.status !== "running" && data.status !== "pending") refetchPoint(data.id);
        },
        search: (e) => {
          const data = parse<SearchEvent>(e);
          if (data) setSearches((old) => addSearchEvent(old, data));
        },
        status: invalidate,
        end: () => {
          invalidate();
          refetchAllPoints();
          qc.invalidateQueries({ queryKey: keys.campaigns, exact: false });
          live.close();
          setStream("connecting");
        },
      },
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
      live.close();
      setStream("connecting");
    };
  }, [id, active, qc]);

  return { samples, stream, searches };
}

/** Each search's bracket events in order (one search per phase × variant × repetition), the last 200 kept. */
export function addSearchEvent(old: Record<string, SearchEvent[]>, e: SearchEvent): Record<string, SearchEvent[]> {
  const key = `${e.phase_index}/${e.variant ?? ""}/${e.repeat}`;
  return { ...old, [key]: [...(old[key] ?? []), e].slice(-200) };
}
