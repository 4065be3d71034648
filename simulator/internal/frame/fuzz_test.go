package frame

import (
	"errors"
	"testing"
)

// countingHandler checks every delivered frame is well-formed and bounded.
type countingHandler struct {
	t *testing.T
	f *Framing
	n int
}

func (h *countingHandler) HandleFrame(fr []byte) error {
	if len(fr) > h.f.MaxFrame {
		h.t.Fatalf("frame of %d bytes exceeds max %d", len(fr), h.f.MaxFrame)
	}
	if err := h.f.Check(fr); err != nil {
		h.t.Fatalf("delivered an invalid frame: %v", err)
	}
	h.n++
	return nil
}

// FuzzDecoder feeds arbitrary bytes, cut at an arbitrary point, to the
// streaming decoder: it must never panic, never buffer more than one maximum
// frame, and only deliver frames that pass the checksum.
func FuzzDecoder(f *testing.F) {
	login, report := mustHex(f, loginHex), mustHex(f, reportHex)
	f.Add(login, uint16(5))
	f.Add(append(append([]byte{}, login...), report...), uint16(45))
	f.Add([]byte{0x68, 0xFF, 0xFF, 0x68}, uint16(1))
	f.Add([]byte{0x68, 0x00, 0x00, 0x68, 0x00, 0x00, 0x16}, uint16(3))
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		fr := singlelight()
		fr.MaxFrame = 256
		d := NewDecoder(fr)
		h := &countingHandler{t: t, f: fr}
		c := int(cut) % (len(data) + 1)
		err := d.Feed(data[:c], h)
		if err == nil {
			err = d.Feed(data[c:], h)
		}
		if d.Pending() > fr.MaxFrame {
			t.Fatalf("buffered %d bytes, max frame %d", d.Pending(), fr.MaxFrame)
		}
		if err != nil && !errors.Is(err, ErrBadHeader) && !errors.Is(err, ErrBadLength) &&
			!errors.Is(err, ErrBadTrailer) && !errors.Is(err, ErrBadChecksum) {
			t.Fatalf("unexpected error %v", err)
		}
	})
}
