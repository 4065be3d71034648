// Package output writes devsim's NDJSON lines and diagnostics and measures
// the process's own CPU and memory for the summaries.
package output

import (
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// Printer writes NDJSON lines to Stdout and prefixed diagnostics to Stderr.
type Printer struct {
	Stdout io.Writer
	Stderr io.Writer
	Prefix string // e.g. "devsim run"
}

// Emit writes v as one JSON line.
func (p *Printer) Emit(v any) {
	b, err := json.Marshal(v)
	if err == nil {
		_, err = fmt.Fprintf(p.Stdout, "%s\n", b)
	}
	if err != nil {
		p.Logf("output: %v", err)
	}
}

// Logf prints a diagnostic line on stderr.
func (p *Printer) Logf(format string, args ...any) {
	fmt.Fprintf(p.Stderr, p.Prefix+": "+format+"\n", args...)
}

// Round3 rounds to three decimals, enough for milliseconds and rates.
func Round3(v float64) float64 { return float64(int64(v*1000+0.5)) / 1000 }

// UnixSeconds is t as float seconds since the epoch.
func UnixSeconds(t time.Time) float64 { return float64(t.UnixMicro()) / 1e6 }

// Rate is count per second over secs, 0 when secs is not positive.
func Rate(count uint64, secs float64) float64 {
	if secs <= 0 {
		return 0
	}
	return Round3(float64(count) / secs)
}
