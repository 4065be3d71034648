package run

import (
	"kneeboard/simulator/internal/evloop"
	"kneeboard/simulator/internal/frame"
)

// Device states.
const (
	stateIdle       uint8 = iota // not connected yet
	stateConnecting              // TCP connect in progress
	stateLogin                   // login sent, waiting for the reply
	stateReady                   // logged in, reporting
	stateDone                    // failed or closed
)

// maxOutstanding bounds the reports a device remembers while waiting for acks;
// past it the oldest is forgotten (counted as unmatched if its ack comes).
const maxOutstanding = 1024

// device is one simulated device: a non-blocking socket and little else.
type device struct {
	id       uint64
	fd       int32
	state    uint8
	slot     int32   // index in the shard's ready list
	deadline int64   // connect or login deadline (ns since start), 0 if none
	seq      uint64  // sequence number of the next report
	ackNext  uint64  // oldest report not acked yet; [ackNext, seq) are outstanding
	sentAt   []int64 // send times (ns since start) of outstanding reports, by seq
	dec      frame.Decoder
	out      evloop.Outbox
}

// outstanding is the number of reports awaiting an ack.
func (d *device) outstanding() int { return int(d.seq - d.ackNext) }

// track remembers the send time of report seq (about to become d.seq+1) for
// latency when its ack comes. It returns true when the oldest outstanding
// report had to be forgotten to make room.
func (d *device) track(seq uint64, now int64) (forgot bool) {
	if d.outstanding() >= len(d.sentAt) {
		if len(d.sentAt) < maxOutstanding {
			d.grow()
		} else {
			d.ackNext++
			forgot = true
		}
	}
	d.sentAt[seq&uint64(len(d.sentAt)-1)] = now
	return forgot
}

// grow doubles the send-time ring, keeping outstanding entries at their seq.
func (d *device) grow() {
	grown := make([]int64, max(2*len(d.sentAt), 2))
	for s := d.ackNext; s != d.seq; s++ {
		grown[s&uint64(len(grown)-1)] = d.sentAt[s&uint64(len(d.sentAt)-1)]
	}
	d.sentAt = grown
}

// sentTime returns the send time of outstanding report seq.
func (d *device) sentTime(seq uint64) int64 {
	return d.sentAt[seq&uint64(len(d.sentAt)-1)]
}
