package procs

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

// childEnv makes the test binary act as a child: it prints the NDJSON lines
// in the variable (separated by "|") and exits with the code in its first
// argument.
const childEnv = "PROCS_TEST_CHILD_LINES"

func TestMain(m *testing.M) {
	if lines, ok := os.LookupEnv(childEnv); ok && len(os.Args) > 1 && os.Args[1] == "child" {
		for _, l := range strings.Split(lines, "|") {
			fmt.Println(l)
		}
		code := 0
		fmt.Sscan(os.Args[2], &code)
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// fakeFleet is a fleet of n children whose lines the test sends itself.
func fakeFleet(n int) *Fleet {
	return &Fleet{cmds: make([]*exec.Cmd, n), lines: make(chan line, 64)}
}

func (f *Fleet) send(child int, data string) {
	f.lines <- line{child: child, data: []byte(data)}
}

func (f *Fleet) end(child int) { f.lines <- line{child: child} }

type group struct {
	n     int64
	lines []string
}

func merge(f *Fleet) (groups []group, summaries []string, readyCalls int) {
	raw := f.Merge(context.Background(), func() { readyCalls++ }, func(n int64, lines [][]byte) {
		g := group{n: n}
		for _, l := range lines {
			g.lines = append(g.lines, string(l))
		}
		groups = append(groups, g)
	})
	for _, s := range raw {
		summaries = append(summaries, string(s))
	}
	return groups, summaries, readyCalls
}

func TestMergeGroupsIntervalsInOrder(t *testing.T) {
	f := fakeFleet(2)
	f.send(0, `{"ready":true}`)
	f.send(0, `{"n":1,"c":0}`)
	f.send(0, `{"n":2,"c":0}`) // child 1 has not sent interval 1 yet: nothing is handed on
	f.send(1, `{"ready":true}`)
	f.send(1, `not json`)
	f.send(1, `{"n":1,"c":1}`)
	f.send(1, `{"n":2,"c":1}`)
	f.send(1, `{"n":3,"c":1}`)
	f.send(1, `{"summary":true,"c":1}`)
	f.end(1)
	f.send(0, `{"summary":true,"c":0}`)
	f.end(0) // child 0 never sent interval 3: it goes out with child 1's line only
	groups, summaries, ready := merge(f)
	want := []group{
		{1, []string{`{"n":1,"c":0}`, `{"n":1,"c":1}`}},
		{2, []string{`{"n":2,"c":0}`, `{"n":2,"c":1}`}},
		{3, []string{`{"n":3,"c":1}`}},
	}
	if !reflect.DeepEqual(groups, want) {
		t.Errorf("groups %v, want %v", groups, want)
	}
	if want := []string{`{"summary":true,"c":1}`, `{"summary":true,"c":0}`}; !reflect.DeepEqual(summaries, want) {
		t.Errorf("summaries %v, want %v", summaries, want)
	}
	if ready != 1 {
		t.Errorf("onReady called %d times, want 1", ready)
	}
}

func TestMergeHoldsAnIntervalUntilEveryRunningChildSentIt(t *testing.T) {
	f := fakeFleet(2)
	f.send(0, `{"n":1}`)
	f.send(0, `{"n":2}`)
	f.send(0, `{"n":3}`)
	f.send(1, `{"n":2}`) // child 1 skipped interval 1: it goes out alone once child 1 is past it
	f.end(0)
	f.end(1)
	groups, _, ready := merge(f)
	var ns []int64
	var sizes []int
	for _, g := range groups {
		ns, sizes = append(ns, g.n), append(sizes, len(g.lines))
	}
	if !reflect.DeepEqual(ns, []int64{1, 2, 3}) || !reflect.DeepEqual(sizes, []int{1, 2, 1}) {
		t.Errorf("intervals %v with %v lines, want [1 2 3] with [1 2 1]", ns, sizes)
	}
	if ready != 0 {
		t.Errorf("onReady called %d times without ready lines", ready)
	}
}

func TestDecodeLeavesOutBadLines(t *testing.T) {
	type v struct{ N int }
	got := Decode[v]([][]byte{[]byte(`{"N":1}`), []byte(`{`), []byte(`{"N":3}`)})
	if len(got) != 2 || got[0].N != 1 || got[1].N != 3 {
		t.Errorf("Decode = %+v", got)
	}
}

func TestRunReexecsChildren(t *testing.T) {
	t.Setenv(childEnv, `{"ready":true}|{"n":1,"x":1}|{"summary":true}`)
	var groups int
	summaries, codes, err := Run(context.Background(), [][]string{{"child", "0"}, {"child", "3"}}, os.Stderr,
		nil, func(n int64, lines [][]byte) {
			groups++
			if n != 1 || len(lines) != 2 {
				t.Errorf("interval %d with %d lines, want 1 with 2", n, len(lines))
			}
		})
	if err != nil {
		t.Fatal(err)
	}
	if groups != 1 || len(summaries) != 2 || !reflect.DeepEqual(codes, []int{0, 3}) {
		t.Errorf("%d intervals, %d summaries, codes %v; want 1, 2, [0 3]", groups, len(summaries), codes)
	}
}
