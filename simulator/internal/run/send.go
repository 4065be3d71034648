package run

import "time"

const (
	maxBatch   = 64   // reports written to one device in one tick
	maxCatchUp = 0.25 // seconds of reports a late shard may catch up on
)

// sendReports spreads this tick's share of reports over the logged-in
// devices round-robin, so each device reports at its interval and the shard
// as a whole at devices × rate, without a timer per device.
func (s *shard) sendReports(dt float64) {
	n := len(s.ready)
	if n == 0 {
		s.sendCredit = 0
		return
	}
	perSecond := float64(n) * s.rate
	s.sendCredit = min(s.sendCredit+perSecond*dt, perSecond*maxCatchUp+1)
	due := int(s.sendCredit)
	if due == 0 {
		return
	}
	s.sendCredit -= float64(due)
	s.msg.Now = time.Now()
	rounds, extra := due/n, due%n
	if rounds == 0 {
		for ; extra > 0 && len(s.ready) > 0; extra-- {
			s.cursor %= len(s.ready)
			s.report(s.ready[s.cursor], 1)
			s.cursor++
		}
		return
	}
	for i := 0; i < n && len(s.ready) > 0; i++ {
		k := rounds
		if i < extra {
			k++
		}
		s.report(s.ready[(s.cursor+i)%len(s.ready)], min(k, maxBatch))
	}
	if len(s.ready) > 0 {
		s.cursor = (s.cursor + extra) % len(s.ready)
	}
}

// report writes k reports of device d in one write.
func (s *shard) report(d *device, k int) {
	if d.out.Pending() > 0 {
		s.ctr.Skipped += uint64(k)
		return
	}
	if s.sends++; s.sends%32 == 0 {
		s.now = int64(time.Since(s.start))
	}
	buf := s.outBuf[:0]
	for range k {
		s.msg.DeviceID, s.msg.Seq = d.id, d.seq
		buf = s.prof.Report.Stamp(buf, &s.msg)
		if s.prof.Acks {
			if d.track(d.seq, s.now) {
				s.g.Outstanding--
			}
			s.g.Outstanding++
		}
		d.seq++
	}
	s.outBuf = buf
	if !s.send(d, buf) {
		return
	}
	s.ctr.Sent += uint64(k)
}
