package serve

import (
	"sync/atomic"
	"syscall"
	"time"

	"kneeboard/simulator/internal/evloop"
	"kneeboard/simulator/internal/frame"
	"kneeboard/simulator/internal/profile"
)

const (
	tick         = 5 * time.Millisecond
	readBufSize  = 64 << 10
	maxQueued    = 256 << 10 // replies queued for one slow reader before it is no longer read
	incomingSize = 4096
)

// peer is one device connection as the platform sees it.
type peer struct {
	fd  int32
	dec frame.Decoder
	out evloop.Outbox
}

// control is what the serve controller shares with its shards.
type control struct {
	stop    atomic.Bool
	snapSeq atomic.Int64
}

// snapshot is a shard's interval counts and open-connection count.
type snapshot struct {
	seq   int64
	final bool
	open  int
	ctr   counters
}

// shard is one event loop serving the connections handed to it.
type shard struct {
	cfg      *Config
	prof     *profile.Profile
	ctl      *control
	snaps    chan<- snapshot
	incoming chan int
	poll     *evloop.Poller
	peers    evloop.Table[peer]
	open     int
	ctr      counters
	lastSnap int64
	readBuf  []byte
	outBuf   []byte
}

func newShard(cfg *Config, ctl *control, snaps chan<- snapshot) (*shard, error) {
	p, err := evloop.NewPoller(256)
	if err != nil {
		return nil, err
	}
	return &shard{
		cfg: cfg, prof: cfg.Profile, ctl: ctl, snaps: snaps, incoming: make(chan int, incomingSize),
		poll: p, readBuf: make([]byte, readBufSize), outBuf: make([]byte, 0, 8192),
	}, nil
}

func (s *shard) run(start time.Time) {
	if err := evloop.Loop(s.poll, start, tick, s); err != nil {
		s.cfg.Logf("%v", err)
		s.shutdown()
	}
}

// Tick adopts new connections and answers the controller.
func (s *shard) Tick(time.Duration) bool {
	if s.ctl.stop.Load() {
		s.shutdown()
		return false
	}
	for more := true; more; {
		select {
		case fd := <-s.incoming:
			s.adopt(fd)
		default:
			more = false
		}
	}
	if req := s.ctl.snapSeq.Load(); req != s.lastSnap {
		s.lastSnap = req
		s.snaps <- snapshot{seq: req, open: s.open, ctr: s.ctr}
		s.ctr = counters{}
	}
	return true
}

func (s *shard) adopt(fd int) {
	if err := s.poll.Add(fd, evloop.In); err != nil {
		syscall.Close(fd)
		return
	}
	s.peers.Put(fd, &peer{fd: int32(fd), dec: frame.NewDecoder(s.prof.Framing)})
	s.open++
	s.ctr.Accepted++
}

// shutdown closes every connection and hands in the final counts.
func (s *shard) shutdown() {
	s.peers.Each(func(fd int, _ *peer) { s.drop(fd) })
	s.poll.Close()
	s.snaps <- snapshot{final: true, ctr: s.ctr}
}

// Event serves one ready connection.
func (s *shard) Event(fd int, events uint32, _ time.Duration) {
	p := s.peers.Get(fd)
	if p == nil {
		return
	}
	if events&evloop.Out != 0 {
		n, err := p.out.Flush(s.poll, fd)
		s.ctr.BytesOut += uint64(n)
		if err != nil {
			s.close(fd)
			return
		}
	}
	if events&evloop.In != 0 || evloop.Errored(events) {
		s.readable(fd, p)
	}
}

// readable reads until the socket is drained (edge-triggered polling),
// answers the complete frames of each read with one write, and closes the
// connection on EOF, error or garbage.
func (s *shard) readable(fd int, p *peer) {
	for {
		n, err := evloop.Read(fd, s.readBuf)
		if n <= 0 {
			if err == nil || !evloop.Temporary(err) {
				s.close(fd)
			}
			return
		}
		if !s.answer(fd, p, s.readBuf[:n]) || n < len(s.readBuf) {
			return
		}
	}
}

// answer decodes data and writes the replies; false when the connection
// was closed.
func (s *shard) answer(fd int, p *peer, data []byte) bool {
	s.ctr.BytesIn += uint64(len(data))
	s.outBuf = s.outBuf[:0]
	ferr := p.dec.Feed(data, s)
	if len(s.outBuf) > 0 {
		sent, err := p.out.Send(s.poll, fd, s.outBuf)
		s.ctr.BytesOut += uint64(sent)
		if err != nil {
			s.close(fd)
			return false
		}
	}
	if ferr != nil {
		s.ctr.BadFrames++
		s.close(fd)
		return false
	}
	if p.out.Pending() > maxQueued {
		_ = s.poll.Modify(fd, evloop.Out) // stop reading until the device catches up
		return false
	}
	return true
}

// HandleFrame answers one valid frame.
func (s *shard) HandleFrame(f []byte) error {
	typ, ok := s.prof.TypeOf(f)
	switch {
	case !ok:
		s.ctr.Unknown++
	case typ == s.prof.Login.Type:
		s.ctr.Logins++
		s.outBuf = s.prof.LoginReply.Echo(s.outBuf, f, s.prof.Login)
	case typ == s.prof.Report.Type:
		s.ctr.Reports++
		if s.cfg.AckReports {
			s.ctr.Acks++
			s.outBuf = s.prof.ReportReply.Echo(s.outBuf, f, s.prof.Report)
		}
	default:
		s.ctr.Unknown++
	}
	return nil
}

// close ends a connection the device closed or broke.
func (s *shard) close(fd int) {
	s.ctr.Closed++
	s.drop(fd)
}

func (s *shard) drop(fd int) {
	s.peers.Delete(fd)
	syscall.Close(fd)
	s.open--
}
