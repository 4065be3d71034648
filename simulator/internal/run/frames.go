package run

import (
	"bytes"
	"math/rand/v2"

	"kneeboard/simulator/internal/profile"
)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x64657673696d)) }

// HandleFrame handles one frame the platform sent to the current device: the
// login reply during the handshake, acks afterwards.
func (s *shard) HandleFrame(f []byte) error {
	d := s.cur
	typ, ok := s.prof.TypeOf(f)
	switch {
	case !ok:
		s.ctr.Unmatched++
	case d.state == stateLogin && typ == s.prof.LoginReply.Type:
		if s.prof.MatchLoginID && !s.echoesID(f, s.prof.LoginReply.DeviceID, d.id) {
			s.ctr.Unmatched++
			return nil
		}
		s.loggedIn(d)
	case d.state == stateReady && s.prof.Acks && typ == s.prof.ReportReply.Type:
		s.acked(d, f)
	default:
		s.ctr.Unmatched++
	}
	return nil
}

// echoesID reports whether field f of frame carries device id.
func (s *shard) echoesID(frame []byte, f *profile.Field, id uint64) bool {
	got := f.In(frame)
	if got == nil {
		return false
	}
	want := s.idBuf[:f.Width]
	f.PutDeviceID(want, id)
	return bytes.Equal(got, want)
}

// loggedIn puts d into the report rotation.
func (s *shard) loggedIn(d *device) {
	d.state, d.deadline = stateReady, 0
	d.seq, d.ackNext = 1, 1
	d.slot = int32(len(s.ready))
	s.ready = append(s.ready, d)
	s.g.LoggedIn++
	s.ctr.Logins++
}

// unready takes d out of the report rotation.
func (s *shard) unready(d *device) {
	last := s.ready[len(s.ready)-1]
	s.ready[d.slot] = last
	last.slot = d.slot
	s.ready[len(s.ready)-1] = nil
	s.ready = s.ready[:len(s.ready)-1]
	if s.cursor >= len(s.ready) {
		s.cursor = 0
	}
}

// acked matches an ack to the outstanding report it answers and records the
// round-trip latency.
func (s *shard) acked(d *device, f []byte) {
	p := s.prof
	if d.outstanding() == 0 || (p.MatchAckID && !s.echoesID(f, p.ReportReply.DeviceID, d.id)) {
		s.ctr.Unmatched++
		return
	}
	seq := d.ackNext
	if p.MatchAckSeq {
		b := p.ReportReply.Seq.In(f)
		if b == nil {
			s.ctr.Unmatched++
			return
		}
		v, mask := p.ReportReply.Seq.Value(b), p.ReportReply.Seq.Mask()
		for seq != d.seq && seq&mask != v {
			seq++
		}
		if seq == d.seq {
			s.ctr.Unmatched++
			return
		}
	}
	sent := d.sentTime(seq)
	us := uint64(max(s.now-sent, 0) / 1000)
	s.hist.Record(us)
	if s.cfg.RawLatencies {
		s.raw = append(s.raw, us)
	}
	s.ctr.Acked++
	if s.phase == phaseReport {
		s.ctr.AckedInPhase++
	}
	s.g.Outstanding -= int(seq + 1 - d.ackNext)
	d.ackNext = seq + 1
}
