import { useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { eventsUrl } from "../../api/campaigns";
import { keys } from "../../api/keys";
import type { CampaignOut, Point, PointEvent, PointEventMessage, ProgressEvent, SampleEvent, SearchEvent } from "../../api/types";
import { appendBounded } from "../../charts/downsample";
import type { PointEventRecord } from "../../charts/eventMarkers";
import { openLiveStream, type StreamState } from "./liveStream";

export interface LiveSample {
  t: number;
  values: Record<string, number | null>;
}

/**
 * Follow a campaign's server-sent events while it is active: progress goes straight into the
 * campaign query's cache, samples into a bounded per-point buffer, a point's fired events (`point_event`) into
 * `events` by point (for markers before the point stores them), and `point`/`status`/`end`
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
  const [events, setEvents] = useState<Record<number, PointEventRecord[]>>({});
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
        point_event: (e) => {
          const data = parse<PointEventMessage>(e);
          if (data && typeof data.t === "number") setEvents((old) => addPointEvent(old, data));
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

  return { samples, stream, searches, events };
}

/** A point's events by point id with one more state of an event: the `done` (or failed) state replaces the fired one. */
export function addPointEvent(old: Record<number, PointEventRecord[]>, e: PointEventMessage): Record<number, PointEventRecord[]> {
  const { point_id, ...record } = e;
  const same = (r: PointEventRecord) => r.at_s === record.at_s && r.action === record.action && r.value === record.value;
  const kept = old[point_id] ?? [];
  return { ...old, [point_id]: kept.some(same) ? kept.map((r) => (same(r) ? record : r)) : [...kept, record] };
}

/** Each search's bracket events in order (one search per phase × variant × repetition), the last 200 kept. */
export function addSearchEvent(old: Record<string, SearchEvent[]>, e: SearchEvent): Record<string, SearchEvent[]> {
  const key = `${e.phase_index}/${e.variant ?? ""}/${e.repeat}`;
  return { ...old, [key]: [...(old[key] ?? []), e].slice(-200) };
}
