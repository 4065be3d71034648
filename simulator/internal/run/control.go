package run

import "sync/atomic"

// Phases of a run, set by the controller and read by the shards.
const (
	phaseRamp   int32 = iota // connecting and logging in devices; no reports yet
	phaseReport              // every device has connected or failed: the measured phase
	phaseDrain               // no more reports; waiting for outstanding acks
	phaseStop                // close everything and hand in the final counts
)

var phaseNames = [...]string{"ramp", "report", "drain", "done"}

// control is the little state the controller shares with its shards.
type control struct {
	phase       atomic.Int32
	snapSeq     atomic.Int64   // bumped to ask every shard for a snapshot
	outstanding []atomic.Int64 // per shard, published while draining; -1 = not yet
}

func newControl(shards int) *control {
	c := &control{outstanding: make([]atomic.Int64, shards)}
	return c
}
