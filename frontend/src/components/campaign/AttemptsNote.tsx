import type { CampaignOut, Point } from "../../api/types";

/** "1–3, 5, 7–8" from 0-based seqs (shown 1-based, as the points table numbers them). */
export function seqRanges(seqs: number[]): string {
  const sorted = [...new Set(seqs)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(i === j ? `${sorted[i] + 1}` : `${sorted[i] + 1}–${sorted[j] + 1}`);
    i = j;
  }
  return parts.join(", ");
}

/** Which points ran in which attempt, first attempt first. */
export function pointsByAttempt(points: Pick<Point, "seq" | "attempt">[]): { attempt: number; points: string; count: number }[] {
  const groups = new Map<number, number[]>();
  for (const p of points) groups.set(p.attempt, [...(groups.get(p.attempt) ?? []), p.seq]);
  return [...groups.entries()].sort(([a], [b]) => a - b).map(([attempt, seqs]) => ({ attempt, points: seqRanges(seqs), count: seqs.length }));
}

/** "Resumed: attempt N" on a campaign run more than once, with the points each attempt ran. */
export default function AttemptsNote({ campaign, points }: { campaign: Pick<CampaignOut, "attempt">; points: Pick<Point, "seq" | "attempt">[] }) {
  if (campaign.attempt <= 1) return null;
  return (
    <div className="banner info" data-testid="attempts-note">
      <strong>Resumed: attempt {campaign.attempt}.</strong>{" "}
      {pointsByAttempt(points).map((g, i) => (
        <span key={g.attempt}>
          {i > 0 && "; "}
          attempt {g.attempt} ran point{g.count === 1 ? "" : "s"} {g.points}
        </span>
      ))}
    </div>
  );
}
