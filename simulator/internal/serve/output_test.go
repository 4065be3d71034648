package serve

import (
	"testing"

	"kneeboard/simulator/internal/fieldtest"
)

func TestCountersAddSumsEveryField(t *testing.T) {
	fieldtest.CheckSum(t, "counters", (*counters).add)
}
