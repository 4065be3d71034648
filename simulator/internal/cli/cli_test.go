package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runMain(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestBadArgumentsExit2WithMessage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "usage"},
		{[]string{"fly"}, "unknown command"},
		{[]string{"run", "--devices", "10"}, "--target is required"},
		{[]string{"run", "--target", "127.0.0.1:1"}, "--devices 0"},
		{[]string{"run", "--target", "127.0.0.1", "--devices", "1"}, "HOST:PORT"},
		{[]string{"run", "--target", "127.0.0.1:1", "--devices", "1", "--interval", "1s", "--rate", "5"}, "not both"},
		{[]string{"run", "--target", "127.0.0.1:1", "--devices", "1", "--rate", "-5"}, "--rate"},
		{[]string{"run", "--target", "127.0.0.1:1", "--devices", "1", "--duration", "0s"}, "--duration"},
		{[]string{"run", "--target", "127.0.0.1:1", "--devices", "2", "--procs", "3"}, "--procs"},
		{[]string{"run", "--target", "127.0.0.1:1", "--devices", "1", "--source-ips", "127.0.0.2,nope"}, "not an IP"},
		{[]string{"run", "--target", "127.0.0.1:1", "--devices", "1", "--source-ips", "::1"}, "family"},
		{[]string{"run", "--target", "127.0.0.1:1", "--devices", "2", "--start-id", "999999999999"}, "does not fit"},
		{[]string{"run", "--target", "127.0.0.1:1", "--devices", "1", "--profile", "streetlamp"}, "unknown built-in"},
		{[]string{"run", "--target", "127.0.0.1:1", "--devices", "1", "--bogus"}, "bogus"},
		{[]string{"run", "--target", "127.0.0.1:1", "--devices", "1", "extra"}, "unexpected argument"},
		{[]string{"serve"}, "--listen is required"},
		{[]string{"serve", "--listen", "127.0.0.1:0", "--procs", "0"}, "--procs"},
		{[]string{"serve", "--listen", "127.0.0.1:0", "--duration", "-1s"}, "--duration"},
		{[]string{"serve", "--listen", "127.0.0.1:0", "--metrics", "nope"}, "--metrics"},
		{[]string{"profile", "check"}, "--profile-file"},
		{[]string{"profile", "check", "--profile-file", "/nonexistent.json"}, "no such file"},
		{[]string{"profile", "frob"}, "unknown profile subcommand"},
	} {
		code, _, stderr := runMain(tc.args...)
		if code != ExitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q (want 2 and %q)", tc.args, code, stderr, tc.want)
		}
	}
}

func TestHelpExits0(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"run", "--help"}, {"serve", "-h"}, {"profile", "--help"}} {
		if code, out, _ := runMain(args...); code != 0 || !strings.Contains(out, "usage") {
			t.Errorf("%v: exit %d", args, code)
		}
	}
}

func TestProfileCheck(t *testing.T) {
	code, out, _ := runMain("profile", "check", "--profile", "singlelight")
	if code != 0 || !strings.Contains(out, "valid") {
		t.Fatalf("builtin: %d %q", code, out)
	}
	_, shown, _ := runMain("profile", "show")
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte(shown), 0o644)
	if code, out, errOut := runMain("profile", "check", "--profile-file", good); code != 0 {
		t.Fatalf("shown profile invalid: %d %q %q", code, out, errOut)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(strings.Replace(shown, `"offset": 10, "width": 2`, `"offset": 60, "width": 2`, 1)), 0o644)
	code, _, errOut := runMain("profile", "check", "--profile-file", bad)
	if code != 2 || !strings.Contains(errOut, "frames.report.fields[1].offset") {
		t.Fatalf("bad profile: %d %q", code, errOut)
	}
	code, _, errOut = runMain("run", "--target", "127.0.0.1:1", "--devices", "1", "--profile-file", bad)
	if code != 2 || !strings.Contains(errOut, "frames.report.fields[1].offset") {
		t.Fatalf("run with bad profile: %d %q", code, errOut)
	}
}

func TestRateBecomesPerDeviceInterval(t *testing.T) {
	cfg, _, err := parseRun([]string{"--target", "127.0.0.1:9", "--devices", "2000", "--rate", "200000"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Interval.Milliseconds() != 10 || cfg.OfferedRate() != 200000 {
		t.Fatalf("interval %v offered %v", cfg.Interval, cfg.OfferedRate())
	}
}
