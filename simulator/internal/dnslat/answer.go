package dnslat

import "bytes"

// answerKind tells what a dnsperf -v line reports.
type answerKind int

const (
	notAnswer answerKind = iota // any other line: passed through unchanged
	answered                    // "> RCODE name type 0.000124": an answer and its latency
	timedOut                    // "> T name type": a query lost to the timeout
)

// parseAnswer reads one dnsperf -v line: an answer with its latency in µs, a
// timeout, or a line that is neither.
func parseAnswer(line []byte) (answerKind, int64) {
	if len(line) < 4 || line[0] != '>' || line[1] != ' ' {
		return notAnswer, 0
	}
	if line[2] == 'T' && line[3] == ' ' {
		return timedOut, 0
	}
	cut := bytes.LastIndexByte(line, ' ')
	if cut < 2 {
		return notAnswer, 0
	}
	us, ok := secondsToMicros(line[cut+1:])
	if !ok {
		return notAnswer, 0
	}
	return answered, us
}

// secondsToMicros parses "S.ffffff" (dnsperf's %u.%06u) into whole microseconds,
// without floating point.
func secondsToMicros(text []byte) (int64, bool) {
	var whole, frac int64
	digits, seenDot := 0, false
	for _, c := range text {
		switch {
		case c == '.' && !seenDot:
			seenDot = true
		case c >= '0' && c <= '9' && !seenDot:
			whole = whole*10 + int64(c-'0')
			if whole > 1<<40 {
				return 0, false
			}
		case c >= '0' && c <= '9':
			if digits < 6 {
				frac = frac*10 + int64(c-'0')
				digits++
			}
		default:
			return 0, false
		}
	}
	if !seenDot || len(text) < 3 {
		return 0, false
	}
	for ; digits < 6; digits++ {
		frac *= 10
	}
	return whole*1_000_000 + frac, true
}
