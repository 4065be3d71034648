// Package dnslat reads dnsperf's -v output: it records every answer's latency in an
// HDR histogram, passes every other line through unchanged, and prints one JSON
// line per dnsperf interval (at each `-S` line) and one for the whole run.
package dnslat

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"strconv"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// The histograms' range and precision: 1 µs to 100 s (above dnsperf's longest
// timeout), 3 significant digits. Values are microseconds.
const (
	LowestUS  = 1
	HighestUS = 100_000_000
	Digits    = 3
)

// intervalLine is dnsperf's `-S` line: "EPOCH.usec: qps".
var intervalLine = regexp.MustCompile(`^(\d{9,}\.\d+):\s+[\d.]+\s*$`)

// Report is one JSON line: an interval's or the whole run's latencies.
type Report struct {
	Kind     string   `json:"kblat"`       // "interval" or "point"
	T        *float64 `json:"t,omitempty"` // an interval's end: the epoch of dnsperf's own line
	Unit     string   `json:"unit"`        // the histogram's value unit: "us"
	Count    int64    `json:"count"`       // answers recorded
	Timeouts int64    `json:"timeouts"`    // queries lost to the timeout
	P50      *float64 `json:"p50_ms"`
	P90      *float64 `json:"p90_ms"`
	P99      *float64 `json:"p99_ms"`
	P999     *float64 `json:"p999_ms"`
	Max      *float64 `json:"max_ms"`
	HDR      string   `json:"hdr"` // HdrHistogram V2 compressed, base64
}

// window is one histogram and its timeout count.
type window struct {
	hist     *hdr.Histogram
	timeouts int64
}

func newWindow() window { return window{hist: hdr.New(LowestUS, HighestUS, Digits)} }

func (w *window) record(kind answerKind, us int64) {
	if kind == timedOut {
		w.timeouts++
		return
	}
	_ = w.hist.RecordValue(min(max(us, LowestUS), HighestUS))
}

// report summarises the window as a JSON-ready Report.
func (w *window) report(kind string, t *float64) (Report, error) {
	encoded, err := w.hist.Encode(hdr.V2CompressedEncodingCookieBase)
	if err != nil {
		return Report{}, err
	}
	r := Report{Kind: kind, T: t, Unit: "us", Count: w.hist.TotalCount(), Timeouts: w.timeouts, HDR: string(encoded)}
	if r.Count > 0 {
		r.P50, r.P90, r.P99, r.P999 = w.ms(50), w.ms(90), w.ms(99), w.ms(99.9)
		r.Max = msOf(w.hist.Max())
	}
	return r, nil
}

func (w *window) ms(percentile float64) *float64 { return msOf(w.hist.ValueAtPercentile(percentile)) }

func msOf(us int64) *float64 {
	ms := float64(us) / 1000
	return &ms
}

// Filter copies dnsperf's -v output from in to out: answers and timeouts go into
// the histograms, other lines pass through unchanged, each `-S` line is preceded
// by its interval's report, and the run's report comes last. Whenever it has read
// all there was, it flushes and waits `pause` before reading on: dnsperf writes
// each answer line on its own, and reading them one wake-up at a time would take
// the CPU the load needs.
func Filter(in io.Reader, out io.Writer, pause time.Duration) error {
	src, dst := bufio.NewReaderSize(in, 64<<10), bufio.NewWriterSize(out, 64<<10)
	interval, point := newWindow(), newWindow()
	midLine := false
	for {
		line, err := src.ReadSlice('\n')
		if len(line) > 0 {
			kind, us := notAnswer, int64(0)
			if !midLine {
				kind, us = parseAnswer(trimEOL(line))
			}
			if kind != notAnswer {
				interval.record(kind, us)
				point.record(kind, us)
			} else if err := passThrough(dst, line, midLine, &interval); err != nil {
				return err
			}
			midLine = errors.Is(err, bufio.ErrBufferFull)
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			if !errors.Is(err, io.EOF) {
				return err
			}
			break
		}
		if src.Buffered() == 0 { // about to wait for dnsperf: hand over what we have, let lines gather
			if err := dst.Flush(); err != nil {
				return err
			}
			time.Sleep(pause)
		}
	}
	if err := writeReport(dst, &point, "point", nil); err != nil {
		return err
	}
	return dst.Flush()
}

// passThrough writes a line unchanged; a dnsperf interval line is preceded by the
// interval's report, and the interval starts anew.
func passThrough(dst *bufio.Writer, line []byte, midLine bool, interval *window) error {
	if m := intervalLine.FindSubmatch(trimEOL(line)); m != nil && !midLine {
		t, _ := strconv.ParseFloat(string(m[1]), 64)
		if err := writeReport(dst, interval, "interval", &t); err != nil {
			return err
		}
		interval.hist.Reset()
		interval.timeouts = 0
	}
	_, err := dst.Write(line)
	return err
}

func writeReport(dst *bufio.Writer, w *window, kind string, t *float64) error {
	report, err := w.report(kind, t)
	if err != nil {
		return err
	}
	encoded, err := json.Marshal(report)
	if err != nil {
		return err
	}
	_, err = dst.Write(append(encoded, '\n'))
	return err
}

func trimEOL(line []byte) []byte {
	for len(line) > 0 && (line[len(line)-1] == '\n' || line[len(line)-1] == '\r') {
		line = line[:len(line)-1]
	}
	return line
}
