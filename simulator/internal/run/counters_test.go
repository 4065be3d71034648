package run

import (
	"errors"
	"syscall"
	"testing"

	"kneeboard/simulator/internal/fieldtest"
)

func TestCountersAndGaugesAddSumEveryField(t *testing.T) {
	fieldtest.CheckSum(t, "counters", (*counters).add)
	fieldtest.CheckSum(t, "gauges", (*gauges).add)
}

func TestReasonOfClassifiesSocketErrors(t *testing.T) {
	if len(reasonNames) != int(reasonCount) {
		t.Fatalf("%d reason names for %d reasons", len(reasonNames), reasonCount)
	}
	for err, want := range map[error]reason{
		syscall.ECONNREFUSED:  reasonRefused,
		syscall.EPIPE:         reasonReset,
		syscall.EADDRNOTAVAIL: reasonEaddrnotavail,
		syscall.EMFILE:        reasonEmfile,
		syscall.ENOBUFS:       reasonNobufs,
		errors.New("x"):       reasonOther,
	} {
		if got := reasonOf(err); got != want {
			t.Errorf("reasonOf(%v) = %s, want %s", err, reasonNames[got], reasonNames[want])
		}
	}
}
