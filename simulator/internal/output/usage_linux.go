package output

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// SelfUsage returns this process's CPU seconds (user+system) and its peak
// resident memory in KiB (VmHWM).
func SelfUsage() (cpuS float64, peakKiB uint64) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		cpuS = float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
	}
	return Round3(cpuS), PeakRSSKiB(os.Getpid())
}

// PeakRSSKiB reads VmHWM of a process from /proc, 0 when unavailable.
func PeakRSSKiB(pid int) uint64 {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			v, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return v
		}
	}
	return 0
}

// AddSelfUsage adds this process's own CPU seconds and peak resident memory
// (see SelfUsage) to its children's totals, as a parent reports them.
func AddSelfUsage(childCPUS float64, childPeakKiB uint64) (cpuS float64, peakKiB uint64) {
	cpu, rss := SelfUsage()
	return Round3(childCPUS + cpu), childPeakKiB + rss
}
