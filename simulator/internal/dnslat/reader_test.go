package dnslat

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

const fixtures = "../../../tests/fixtures/tool-output/"

// run filters a captured dnsperf -v file and splits the output into reports and other lines.
func run(t *testing.T, name string) (raw string, reports []Report, passed []string) {
	t.Helper()
	data, err := os.ReadFile(fixtures + name)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Filter(bytes.NewReader(data), &out, 0); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.SplitAfter(out.String(), "\n") {
		if strings.HasPrefix(line, `{"kblat"`) {
			var r Report
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatal(err)
			}
			reports = append(reports, r)
		} else if line != "" {
			passed = append(passed, line)
		}
	}
	return string(data), reports, passed
}

// rawLatencies are the answers' latencies in µs, straight from the -v lines.
func rawLatencies(raw string) []int64 {
	var out []int64
	for _, line := range strings.Split(raw, "\n") {
		if kind, us := parseAnswer([]byte(line)); kind == answered {
			out = append(out, us)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func TestOtherLinesPassThroughUnchanged(t *testing.T) {
	raw, reports, passed := run(t, "dnsperf-2.10-v-c2-Q500-S1.txt")
	var want []string
	for _, line := range strings.SplitAfter(raw, "\n") {
		if line != "" && !strings.HasPrefix(line, "> ") {
			want = append(want, line)
		}
	}
	if strings.Join(passed, "") != strings.Join(want, "") {
		t.Fatalf("pass-through differs:\n%s\nwant:\n%s", strings.Join(passed, ""), strings.Join(want, ""))
	}
	if len(reports) < 2 || reports[len(reports)-1].Kind != "point" {
		t.Fatalf("want interval reports then a point report, got %d", len(reports))
	}
}

func TestIntervalReportComesRightBeforeItsLine(t *testing.T) {
	data, _ := os.ReadFile(fixtures + "dnsperf-2.10-v-c2-Q500-S1.txt")
	var out bytes.Buffer
	_ = Filter(bytes.NewReader(data), &out, 0)
	lines, seen := strings.Split(out.String(), "\n"), 0
	for i, line := range lines {
		if intervalLine.MatchString(line) {
			seen++
			var r Report
			if err := json.Unmarshal([]byte(lines[i-1]), &r); err != nil || r.Kind != "interval" || r.T == nil {
				t.Fatalf("line %d: %q not preceded by its interval report", i, line)
			}
			if want := strings.Split(line, ":")[0]; strconv.FormatFloat(*r.T, 'f', 6, 64) != want {
				t.Fatalf("interval report at %v, its line at %s", *r.T, want)
			}
		}
	}
	if seen != 2 {
		t.Fatalf("want 2 interval lines in a 3 s run, got %d", seen)
	}
}

func TestPointHistogramHoldsEveryAnswer(t *testing.T) {
	raw, reports, _ := run(t, "dnsperf-2.10-v-c2-Q500-S1.txt")
	point, latencies := reports[len(reports)-1], rawLatencies(raw)
	if point.Count != int64(len(latencies)) || point.Count != 1500 || point.Timeouts != 0 {
		t.Fatalf("count %d timeouts %d, want %d answers", point.Count, point.Timeouts, len(latencies))
	}
	h, err := hdr.Decode([]byte(point.HDR))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []float64{50, 90, 99, 99.9} {
		rank := int(q/100*float64(len(latencies)) + 0.5) // HDR's rank rule
		want, got := latencies[rank-1], h.ValueAtPercentile(q)
		if !h.ValuesAreEquivalent(want, got) {
			t.Errorf("p%g: histogram %d µs, raw %d µs: not in one HDR bucket", q, got, want)
		}
	}
	if !h.ValuesAreEquivalent(int64(*point.Max*1000+0.5), latencies[len(latencies)-1]) {
		t.Errorf("max %v ms, raw max %d µs", *point.Max, latencies[len(latencies)-1])
	}
	var merged int64
	for _, r := range reports[:len(reports)-1] {
		merged += r.Count
	}
	if merged == 0 || merged > point.Count {
		t.Errorf("intervals hold %d answers, the point %d", merged, point.Count)
	}
}

func TestTimeoutsAreCountedNotRecorded(t *testing.T) {
	_, reports, passed := run(t, "dnsperf-2.10-v-lost.txt")
	point := reports[len(reports)-1]
	if point.Count != 0 || point.Timeouts != 40 || point.P99 != nil {
		t.Fatalf("want 40 timeouts and no latency, got %+v", point)
	}
	if !strings.Contains(strings.Join(passed, ""), "Queries lost:         40") {
		t.Fatal("the summary must pass through")
	}
}

func TestErrorRcodesAreAnswersToo(t *testing.T) {
	raw, reports, _ := run(t, "dnsperf-2.10-v-refused.txt")
	if got, want := reports[len(reports)-1].Count, int64(len(rawLatencies(raw))); got != want || !strings.Contains(raw, "> REFUSED") {
		t.Fatalf("answers %d, want %d (REFUSED included, as dnsperf's own average does)", got, want)
	}
}

func TestParseAnswer(t *testing.T) {
	for line, want := range map[string]int64{
		"> NOERROR www.example.lab A 0.000124": 124, "> SERVFAIL x.lab AAAA 1.5": 1_500_000, "> NOERROR a A 12.0000019": 12_000_001,
	} {
		if kind, us := parseAnswer([]byte(line)); kind != answered || us != want {
			t.Errorf("%q: got %v %d, want %d µs", line, kind, us, want)
		}
	}
	for _, line := range []string{"", "1795432171.049615: 500.079536", "> NOERROR www.example.lab A", "> NOERROR a A 1e-3", "[Status] x"} {
		if kind, _ := parseAnswer([]byte(line)); kind != notAnswer {
			t.Errorf("%q read as an answer", line)
		}
	}
	if kind, _ := parseAnswer([]byte("> T www.example.lab A")); kind != timedOut {
		t.Error("a timeout line")
	}
}

func TestLongLinesPassThrough(t *testing.T) {
	long := strings.Repeat("x", 200<<10) + "\n"
	var out bytes.Buffer
	if err := Filter(strings.NewReader(long+"> NOERROR a A 0.000010\n"), &out, 0); err != nil {
		t.Fatal(err)
	}
	first, _ := bufio.NewReaderSize(&out, 1<<20).ReadString('\n')
	if first != long {
		t.Fatalf("a %d-byte line came out as %d bytes", len(long), len(first))
	}
}
