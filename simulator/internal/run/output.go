package run

import (
	"errors"

	"kneeboard/simulator/internal/output"
	"kneeboard/simulator/internal/stats"
)

// Interval is one NDJSON line per --report-every. Counts are for the
// interval; connected, connecting and logged_in are gauges at its end.
type Interval struct {
	T             float64           `json:"t"`
	N             int64             `json:"n"`
	Phase         string            `json:"phase"`
	Connected     int               `json:"connected"`
	Connecting    int               `json:"connecting"`
	LoggedIn      int               `json:"logged_in"`
	Failed        map[string]uint64 `json:"failed"`
	Logins        uint64            `json:"logins"`
	Sent          uint64            `json:"sent"`
	Acked         uint64            `json:"acked"`
	BytesSent     uint64            `json:"bytes_sent"`
	BytesReceived uint64            `json:"bytes_received"`
	RateSent      float64           `json:"rate_sent"`
	RateAcked     float64           `json:"rate_acked"`
	AckP50MS      float64           `json:"ack_p50_ms"`
	AckP90MS      float64           `json:"ack_p90_ms"`
	AckP99MS      float64           `json:"ack_p99_ms"`
	AckP999MS     float64           `json:"ack_p999_ms"`
	AckAvgMS      float64           `json:"ack_avg_ms"`
	Skipped       uint64            `json:"skipped"`
	IntervalS     float64           `json:"interval_s"`
	HDR           string            `json:"hdr,omitempty"`  // the interval's ack latencies (reporting phase only)
	Hist          *stats.Wire       `json:"hist,omitempty"` // only between child and parent
}

// Summary is the final NDJSON line, with totals over the whole run.
type Summary struct {
	Summary       bool              `json:"summary"`
	T             float64           `json:"t"`
	Devices       int               `json:"devices"`
	ConnectedMax  int               `json:"connected_max"`
	Logins        uint64            `json:"logins"`
	Sent          uint64            `json:"sent"`
	Acked         uint64            `json:"acked"`
	Failed        map[string]uint64 `json:"failed"`
	BytesSent     uint64            `json:"bytes_sent"`
	BytesReceived uint64            `json:"bytes_received"`
	AckAvgMS      float64           `json:"ack_avg_ms"`
	AckP50MS      float64           `json:"ack_p50_ms"`
	AckP90MS      float64           `json:"ack_p90_ms"`
	AckP99MS      float64           `json:"ack_p99_ms"`
	AckP999MS     float64           `json:"ack_p999_ms"`
	AckMaxMS      float64           `json:"ack_max_ms"`
	RampS         float64           `json:"ramp_s"`
	DurationS     float64           `json:"duration_s"`
	ElapsedS      float64           `json:"elapsed_s"`
	AckedInPhase  uint64            `json:"acked_in_phase"`
	AchievedRate  float64           `json:"achieved_rate"`
	OfferedRate   float64           `json:"offered_rate"`
	Skipped       uint64            `json:"skipped"`
	Unmatched     uint64            `json:"unmatched"`
	Procs         int               `json:"procs"`
	CPUS          float64           `json:"cpu_s"`
	RSSPeakKiB    uint64            `json:"rss_peak_kib"`
	HDR           string            `json:"hdr,omitempty"`  // the whole run's ack latencies
	Hist          *stats.Wire       `json:"hist,omitempty"` // only between child and parent
}

// fillLatency sets the interval's latency figures from h.
func (iv *Interval) fillLatency(h *stats.Histogram) {
	iv.AckP50MS = output.Round3(h.PercentileMS(50))
	iv.AckP90MS = output.Round3(h.PercentileMS(90))
	iv.AckP99MS = output.Round3(h.PercentileMS(99))
	iv.AckP999MS = output.Round3(h.PercentileMS(99.9))
	iv.AckAvgMS = output.Round3(h.MeanMS())
}

// fillLatency sets the summary's latency figures from h.
func (s *Summary) fillLatency(h *stats.Histogram) {
	s.AckAvgMS = output.Round3(h.MeanMS())
	s.AckP50MS = output.Round3(h.PercentileMS(50))
	s.AckP90MS = output.Round3(h.PercentileMS(90))
	s.AckP99MS = output.Round3(h.PercentileMS(99))
	s.AckP999MS = output.Round3(h.PercentileMS(99.9))
	s.AckMaxMS = output.Round3(h.MaxMS())
}

// attach puts h where its reader wants it: whole for a --procs parent (child),
// or encoded in the output line (shown).
func attach(h *stats.Histogram, child, shown bool) (encoded string, wire *stats.Wire, err error) {
	switch {
	case child:
		wire, err = h.Wire()
	case shown:
		encoded, err = h.Encode()
	}
	return encoded, wire, err
}

func addFailed(dst, src map[string]uint64) {
	for k, v := range src {
		dst[k] += v
	}
}

// mergeIntervals sums the same interval from several child processes and
// merges their histograms (an error when one cannot be read).
func mergeIntervals(parts []*Interval) (*Interval, error) {
	out := &Interval{Failed: map[string]uint64{}, Phase: phaseNames[phaseStop]}
	var h stats.Histogram
	var errs []error
	for _, p := range parts {
		out.N = p.N
		out.Connected += p.Connected
		out.Connecting += p.Connecting
		out.LoggedIn += p.LoggedIn
		addFailed(out.Failed, p.Failed)
		out.Logins += p.Logins
		out.Sent += p.Sent
		out.Acked += p.Acked
		out.BytesSent += p.BytesSent
		out.BytesReceived += p.BytesReceived
		out.RateSent += p.RateSent
		out.RateAcked += p.RateAcked
		out.Skipped += p.Skipped
		out.IntervalS = max(out.IntervalS, p.IntervalS)
		if phaseIndex(p.Phase) < phaseIndex(out.Phase) {
			out.Phase = p.Phase
		}
		errs = append(errs, h.MergeWire(p.Hist))
	}
	out.fillLatency(&h)
	var err error
	out.HDR, _, err = attach(&h, false, out.Phase == phaseNames[phaseReport])
	out.RateSent, out.RateAcked = output.Round3(out.RateSent), output.Round3(out.RateAcked)
	return out, errors.Join(append(errs, err)...)
}

func phaseIndex(name string) int {
	for i, n := range phaseNames {
		if n == name {
			return i
		}
	}
	return len(phaseNames)
}

// mergeSummaries sums child summaries and merges their histograms (an error
// when one cannot be read); the caller sets what only it knows.
func mergeSummaries(parts []*Summary) (*Summary, error) {
	out := &Summary{Summary: true, Failed: map[string]uint64{}}
	var h stats.Histogram
	var errs []error
	for _, p := range parts {
		out.Devices += p.Devices
		out.ConnectedMax += p.ConnectedMax
		out.Logins += p.Logins
		out.Sent += p.Sent
		out.Acked += p.Acked
		addFailed(out.Failed, p.Failed)
		out.BytesSent += p.BytesSent
		out.BytesReceived += p.BytesReceived
		out.RampS = max(out.RampS, p.RampS)
		out.DurationS = max(out.DurationS, p.DurationS)
		out.AckedInPhase += p.AckedInPhase
		out.AchievedRate += p.AchievedRate
		out.OfferedRate += p.OfferedRate
		out.Skipped += p.Skipped
		out.Unmatched += p.Unmatched
		out.Procs += p.Procs
		out.CPUS += p.CPUS
		out.RSSPeakKiB += p.RSSPeakKiB
		errs = append(errs, h.MergeWire(p.Hist))
	}
	out.fillLatency(&h)
	var err error
	out.HDR, _, err = attach(&h, false, true)
	out.AchievedRate = output.Round3(out.AchievedRate)
	return out, errors.Join(append(errs, err)...)
}
