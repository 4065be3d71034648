package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

var devsimBin string

// TestMain builds the devsim binary once; the tests run it as a user would.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "devsim-test")
	if err != nil {
		panic(err)
	}
	devsimBin = filepath.Join(dir, "devsim")
	build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", devsimBin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// platform is a running `devsim serve`.
type platform struct {
	cmd  *exec.Cmd
	addr string
	out  *strings.Builder
}

// startServe starts devsim serve on 127.0.0.1 and waits until it listens.
func startServe(t *testing.T, listen string, args ...string) *platform {
	t.Helper()
	cmd := exec.Command(devsimBin, append([]string{"serve", "--listen", listen, "--ack-reports"}, args...)...)
	out := &strings.Builder{}
	cmd.Stdout = out
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &platform{cmd: cmd, out: out}
	t.Cleanup(func() { p.stop() })
	sc := bufio.NewScanner(stderr)
	found := make(chan string, 1)
	go func() {
		for sc.Scan() {
			if _, rest, ok := strings.Cut(sc.Text(), "listening on "); ok {
				found <- strings.Fields(rest)[0]
			}
		}
	}()
	select {
	case p.addr = <-found:
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not start listening")
	}
	return p
}

// stop ends serve with SIGTERM and returns its last NDJSON line.
func (p *platform) stop() map[string]any {
	if p.cmd.ProcessState == nil {
		p.cmd.Process.Signal(syscall.SIGTERM)
		p.cmd.Wait()
	}
	lines := strings.Split(strings.TrimSpace(p.out.String()), "\n")
	var last map[string]any
	json.Unmarshal([]byte(lines[len(lines)-1]), &last)
	return last
}

// runDevsim runs devsim run to completion and returns its NDJSON lines.
func runDevsim(t *testing.T, args ...string) ([]map[string]any, int) {
	t.Helper()
	cmd := exec.Command(devsimBin, append([]string{"run"}, args...)...)
	cmd.Stderr = os.Stderr
	out, _ := cmd.Output()
	return parseLines(t, string(out)), cmd.ProcessState.ExitCode()
}

func parseLines(t *testing.T, text string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not JSON: %q", l)
		}
		lines = append(lines, m)
	}
	return lines
}

func num(m map[string]any, key string) float64 {
	v, _ := m[key].(float64)
	return v
}

var intervalKeys = []string{"t", "connected", "connecting", "failed", "logins", "sent", "acked", "bytes_sent",
	"bytes_received", "ack_p50_ms", "ack_p90_ms", "ack_p99_ms", "ack_p999_ms", "ack_avg_ms", "rate_sent", "rate_acked"}

var summaryKeys = []string{"devices", "connected_max", "logins", "sent", "acked", "failed", "ack_avg_ms",
	"ack_p50_ms", "ack_p90_ms", "ack_p99_ms", "ack_p999_ms", "ack_max_ms", "duration_s", "achieved_rate", "offered_rate", "hdr"}

// checkRun verifies the output shape and the acceptance figures of a run.
func checkRun(t *testing.T, lines []map[string]any, devices int) map[string]any {
	t.Helper()
	if len(lines) < 2 {
		t.Fatalf("only %d lines", len(lines))
	}
	for _, l := range lines[:len(lines)-1] {
		for _, k := range intervalKeys {
			if _, ok := l[k]; !ok {
				t.Fatalf("interval line lacks %q: %v", k, l)
			}
		}
		if _, ok := l["hist"]; ok {
			t.Fatal("internal histogram leaked into the output")
		}
		if _, ok := l["hdr"]; ok != (l["phase"] == "report") {
			t.Fatalf("an interval line of phase %v has a histogram: %v", l["phase"], ok)
		}
	}
	s := lines[len(lines)-1]
	if s["summary"] != true {
		t.Fatalf("last line is not the summary: %v", s)
	}
	for _, k := range summaryKeys {
		if _, ok := s[k]; !ok {
			t.Fatalf("summary lacks %q", k)
		}
	}
	sent, acked := num(s, "sent"), num(s, "acked")
	if int(num(s, "logins")) != devices || int(num(s, "connected_max")) != devices {
		t.Fatalf("logins %v connected_max %v, want %d", s["logins"], s["connected_max"], devices)
	}
	if sent < float64(devices) || acked < 0.99*sent {
		t.Fatalf("sent %v acked %v", sent, acked)
	}
	var sumSent float64
	for _, l := range lines[:len(lines)-1] {
		sumSent += num(l, "sent")
	}
	if sumSent != sent {
		t.Fatalf("interval sent adds up to %v, summary says %v", sumSent, sent)
	}
	h, err := hdr.Decode([]byte(s["hdr"].(string)))
	if err != nil || float64(h.TotalCount()) != acked {
		t.Fatalf("summary histogram: %v, %d values for %v acks", err, h.TotalCount(), acked)
	}
	if p99 := float64(h.ValueAtPercentile(99)) / 1000; p99 != num(s, "ack_p99_ms") {
		t.Fatalf("histogram p99 %v, summary %v", p99, s["ack_p99_ms"])
	}
	return s
}

func TestServeAndRun200Devices(t *testing.T) {
	p := startServe(t, "127.0.0.1:0")
	lines, code := runDevsim(t, "--target", p.addr, "--devices", "200", "--duration", "2s",
		"--report-every", "500ms", "--ramp", "2000")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	s := checkRun(t, lines, 200)
	if num(s, "ack_p50_ms") <= 0 || num(s, "achieved_rate") < 150 {
		t.Fatalf("latency or rate missing: %v", s)
	}
	ps := p.stop()
	if num(ps, "logins") != 200 || num(ps, "acks") != num(s, "acked") || num(ps, "bad_frames") != 0 {
		t.Fatalf("platform summary %v", ps)
	}
}

func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func TestProcs2(t *testing.T) {
	metricsAddr := freePort(t)
	p := startServe(t, freePort(t), "--procs", "2", "--metrics", metricsAddr)
	lines, code := runDevsim(t, "--target", p.addr, "--devices", "300", "--duration", "2s", "--procs", "2",
		"--source-ips", "127.0.0.2,127.0.0.3", "--rate", "600")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	s := checkRun(t, lines, 300)
	if num(s, "procs") != 2 || num(s, "offered_rate") != 600 {
		t.Fatalf("procs %v offered %v", s["procs"], s["offered_rate"])
	}
	time.Sleep(1200 * time.Millisecond) // one more interval reaches the metrics
	resp, err := http.Get("http://" + metricsAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "devsim_serve_logins_total 300\n") {
		t.Fatalf("metrics:\n%s", body)
	}
	if ps := p.stop(); num(ps, "procs") != 2 || num(ps, "logins") != 300 {
		t.Fatalf("platform summary %v", ps)
	}
}

func TestNothingToConnectToExits1WithSummary(t *testing.T) {
	lines, code := runDevsim(t, "--target", freePort(t), "--devices", "5", "--duration", "100ms",
		"--login-timeout", "500ms")
	s := lines[len(lines)-1]
	f, _ := s["failed"].(map[string]any)
	if code != 1 || s["summary"] != true || num(f, "refused") != 5 {
		t.Fatalf("exit %d, summary %v", code, s)
	}
}

func TestSIGTERMStopsRunWithSummary(t *testing.T) {
	p := startServe(t, "127.0.0.1:0")
	cmd := exec.Command(devsimBin, "run", "--target", p.addr, "--devices", "50", "--duration", "1h")
	out := &strings.Builder{}
	cmd.Stdout = out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("run did not stop on SIGTERM")
	}
	lines := parseLines(t, out.String())
	if s := lines[len(lines)-1]; s["summary"] != true || num(s, "logins") != 50 || cmd.ProcessState.ExitCode() != 0 {
		t.Fatalf("exit %d, last line %v", cmd.ProcessState.ExitCode(), s)
	}
}

func TestServeClosesOnGarbage(t *testing.T) {
	p := startServe(t, "127.0.0.1:0", "--report-every", "100ms")
	c, err := net.Dial("tcp", p.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte("GET / HTTP/1.0\r\n\r\n"))
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := c.Read(make([]byte, 16)); n != 0 || err == nil {
		t.Fatalf("connection not closed: %d %v", n, err)
	}
	time.Sleep(300 * time.Millisecond)
	if s := p.stop(); num(s, "bad_frames") != 1 || num(s, "closed") != 1 {
		t.Fatalf("summary %v", s)
	}
}
