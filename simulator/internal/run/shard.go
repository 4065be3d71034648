package run

import (
	"syscall"
	"time"

	"kneeboard/simulator/internal/evloop"
	"kneeboard/simulator/internal/frame"
	"kneeboard/simulator/internal/profile"
	"kneeboard/simulator/internal/stats"
)

const (
	tick        = 2 * time.Millisecond // the shard's timer resolution
	maxInflight = 1000                 // connects and logins in progress per shard
	readBufSize = 32 << 10
)

// shard is one event loop owning a slice of the devices: it connects them,
// logs them in, sends their reports and reads their acks, with counters that
// only it touches.
type shard struct {
	index    int
	cfg      *Config
	prof     *profile.Profile
	ctl      *control
	snaps    chan<- snapshot
	start    time.Time
	poll     *evloop.Poller
	addrs    addresses
	devices  []device
	fds      evloop.Table[device]
	next     int // next device to connect
	ready    []*device
	cursor   int
	timeouts deadlineQueue
	rampDone bool

	rate          float64 // reports per second per device
	rampRate      float64 // connections per second for this shard; 0 = no limit
	connectCredit float64
	sendCredit    float64
	lastTick      int64
	lastSnap      int64
	now           int64 // ns since start
	phase         int32

	g    gauges
	ctr  counters
	hist stats.Histogram
	raw  []uint64 // --raw-latencies only

	readBuf []byte
	outBuf  []byte
	msg     profile.Message
	cur     *device // device whose bytes are being decoded
	idBuf   [24]byte
	sends   uint
}

func newShard(index int, cfg *Config, ctl *control, snaps chan<- snapshot, start time.Time, ids []uint64) (*shard, error) {
	p, err := evloop.NewPoller(256)
	if err != nil {
		return nil, err
	}
	s := &shard{
		index: index, cfg: cfg, prof: cfg.Profile, ctl: ctl, snaps: snaps, start: start, poll: p,
		addrs: cfg.addresses(), devices: make([]device, len(ids)), rate: cfg.perDeviceRate(),
		readBuf: make([]byte, readBufSize), outBuf: make([]byte, 0, 4096),
	}
	if cfg.Ramp > 0 {
		s.rampRate = cfg.Ramp / float64(cfg.Shards)
	}
	for i, id := range ids {
		s.devices[i] = device{id: id, fd: -1, dec: frame.NewDecoder(s.prof.Framing)}
	}
	s.msg.Rand = newRand(uint64(index) + ids0(ids))
	return s, nil
}

func ids0(ids []uint64) uint64 {
	if len(ids) == 0 {
		return 0
	}
	return ids[0]
}

// run drives the shard until the controller says stop.
func (s *shard) run() {
	if err := evloop.Loop(s.poll, s.start, tick, s); err != nil {
		s.cfg.Logf("shard %d: %v", s.index, err)
		s.shutdown()
	}
}

// Tick is called by the loop after every wake-up.
func (s *shard) Tick(now time.Duration) bool {
	s.now = int64(now)
	dt := float64(s.now-s.lastTick) / 1e9
	s.lastTick = s.now
	s.phase = s.ctl.phase.Load()
	if s.phase == phaseStop {
		s.shutdown()
		return false
	}
	for d := s.timeouts.pop(s.now); d != nil; d = s.timeouts.pop(s.now) {
		if d.state == stateConnecting {
			s.fail(d, reasonTimeout)
		} else if d.state == stateLogin {
			s.fail(d, reasonLoginTimeout)
		}
	}
	if s.phase < phaseDrain {
		s.connectSome(dt)
	}
	if s.phase == phaseReport {
		s.sendReports(dt)
	} else if s.phase >= phaseDrain {
		s.ctl.outstanding[s.index].Store(int64(s.g.Outstanding))
	}
	if !s.rampDone && s.next == len(s.devices) && s.g.Connecting == 0 && s.g.Connected == s.g.LoggedIn {
		s.rampDone = true
		s.snaps <- snapshot{shard: s.index, seq: -1, rampDone: true}
	}
	if req := s.ctl.snapSeq.Load(); req != s.lastSnap {
		s.lastSnap = req
		s.snaps <- s.snapshot(req, false)
	}
	return true
}

// snapshot hands over the interval counters and resets them.
func (s *shard) snapshot(seq int64, final bool) snapshot {
	h := new(stats.Histogram)
	*h, s.hist = s.hist, stats.Histogram{} // handed over whole: the controller merges it
	snap := snapshot{shard: s.index, seq: seq, final: final, rampDone: s.rampDone, ctr: s.ctr, gauges: s.g, hist: h}
	if final {
		snap.raw = s.raw
	}
	s.ctr = counters{}
	return snap
}

// shutdown closes every connection and hands in the final counts.
func (s *shard) shutdown() {
	s.fds.Each(func(_ int, d *device) { s.close(d) })
	s.poll.Close()
	s.snaps <- s.snapshot(-1, true)
}

// connectSome starts connections, at the ramp rate and within maxInflight.
func (s *shard) connectSome(dt float64) {
	if s.next >= len(s.devices) {
		return
	}
	budget := maxInflight - s.g.Connecting - (s.g.Connected - s.g.LoggedIn)
	if s.rampRate > 0 {
		s.connectCredit = min(s.connectCredit+s.rampRate*dt, maxInflight)
		budget = min(budget, int(s.connectCredit))
	}
	for ; budget > 0 && s.next < len(s.devices); budget-- {
		s.dial(&s.devices[s.next])
		s.next++
		if s.rampRate > 0 {
			s.connectCredit--
		}
	}
}

// dial starts a non-blocking connect for d.
func (s *shard) dial(d *device) {
	fd, err := evloop.Dial(s.addrs.target, s.addrs.source(d.id))
	if err == nil {
		if err = s.poll.Add(fd, evloop.Out); err != nil {
			syscall.Close(fd)
		}
	}
	if err != nil {
		d.state = stateDone
		s.ctr.Failed[reasonOf(err)]++
		return
	}
	d.fd, d.state = int32(fd), stateConnecting
	s.g.Connecting++
	s.fds.Put(fd, d)
	s.timeouts.push(d, s.now+int64(s.cfg.LoginTimeout))
}

// Event handles readiness of one device's socket.
func (s *shard) Event(fd int, events uint32, now time.Duration) {
	d := s.fds.Get(fd)
	if d == nil {
		return
	}
	s.now = int64(now)
	if d.state == stateConnecting {
		s.connected(d)
		return
	}
	if events&evloop.Out != 0 {
		n, err := d.out.Flush(s.poll, fd)
		s.ctr.BytesSent += uint64(n)
		if err != nil {
			s.fail(d, reasonOf(err))
			return
		}
	}
	if events&evloop.In != 0 || evloop.Errored(events) {
		s.readable(d)
	}
}

// connected finishes a connect and sends the login frame.
func (s *shard) connected(d *device) {
	if err := evloop.ConnectResult(int(d.fd)); err != nil {
		s.fail(d, reasonOf(err))
		return
	}
	s.g.Connecting--
	s.g.Connected++
	d.state = stateLogin
	if err := s.poll.Modify(int(d.fd), evloop.In); err != nil {
		s.fail(d, reasonOf(err))
		return
	}
	s.msg.DeviceID, s.msg.Seq, s.msg.Now = d.id, 0, time.Now()
	s.outBuf = s.prof.Login.Stamp(s.outBuf[:0], &s.msg)
	if s.send(d, s.outBuf) {
		s.timeouts.push(d, s.now+int64(s.cfg.LoginTimeout))
	}
}

// readable reads what the platform sent and decodes it, until the socket
// is drained (edge-triggered polling).
func (s *shard) readable(d *device) {
	for d.state != stateDone {
		n, err := evloop.Read(int(d.fd), s.readBuf)
		switch {
		case n > 0:
			s.ctr.BytesReceived += uint64(n)
			s.cur = d
			if err := d.dec.Feed(s.readBuf[:n], s); err != nil {
				s.fail(d, reasonBadFrame)
				return
			}
			if n < len(s.readBuf) {
				return
			}
		case err == nil:
			s.fail(d, reasonClosed)
			return
		case !evloop.Temporary(err):
			s.fail(d, reasonOf(err))
			return
		default:
			return
		}
	}
}

// send writes buf to d's socket; on a hard error d fails and send is false.
func (s *shard) send(d *device, buf []byte) bool {
	n, err := d.out.Send(s.poll, int(d.fd), buf)
	s.ctr.BytesSent += uint64(n)
	if err != nil {
		s.fail(d, reasonOf(err))
		return false
	}
	return true
}

// fail counts a lost device and closes it.
func (s *shard) fail(d *device, r reason) {
	s.ctr.Failed[r]++
	s.close(d)
}

// close releases d's socket and state, keeping the gauges right.
func (s *shard) close(d *device) {
	switch d.state {
	case stateConnecting:
		s.g.Connecting--
	case stateLogin:
		s.g.Connected--
	case stateReady:
		s.g.Connected--
		s.g.LoggedIn--
		s.unready(d)
	}
	s.g.Outstanding -= d.outstanding()
	if d.fd >= 0 {
		s.fds.Delete(int(d.fd))
		syscall.Close(int(d.fd))
	}
	*d = device{id: d.id, fd: -1, state: stateDone, dec: frame.NewDecoder(s.prof.Framing)}
}
