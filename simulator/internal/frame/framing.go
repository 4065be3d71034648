// Package frame encodes and decodes the length-prefixed, checksummed frames that
// simulated devices and the reference platform exchange.
package frame

import (
	"errors"
	"fmt"
)

// Errors returned for malformed input; any of them means the stream is garbage.
var (
	ErrBadHeader   = errors.New("frame: header bytes do not match")
	ErrBadLength   = errors.New("frame: length field out of range")
	ErrBadTrailer  = errors.New("frame: trailer bytes do not match")
	ErrBadChecksum = errors.New("frame: checksum mismatch")
)

// LengthCounts says what the length field counts.
type LengthCounts string

// What a length field may count.
const (
	CountsBody  LengthCounts = "body"  // body bytes only
	CountsFrame LengthCounts = "frame" // the whole frame, header to trailer
)

// Framing describes how frames are delimited on the wire:
// header (with a length field inside) | body | checksum | trailer.
type Framing struct {
	Header    []byte       // header template; the length field bytes are ignored
	LenOffset int          // offset of the length field in the header
	LenWidth  int          // 1, 2 or 4 bytes
	LenBig    bool         // length field is big-endian
	LenCounts LengthCounts // what the length field counts
	Checksum  Checksum     // checksum algorithm
	SumBig    bool         // checksum is big-endian
	SumFrom   int          // first frame byte the checksum covers; it covers up to the body end
	Trailer   []byte       // fixed bytes after the checksum
	MaxFrame  int          // largest acceptable frame in bytes
}

// Overhead is the number of frame bytes that are not body.
func (f *Framing) Overhead() int {
	return len(f.Header) + f.Checksum.Width() + len(f.Trailer)
}

// HeaderLen is the number of bytes needed before the frame length is known.
func (f *Framing) HeaderLen() int { return len(f.Header) }

func (f *Framing) isLengthByte(i int) bool {
	return i >= f.LenOffset && i < f.LenOffset+f.LenWidth
}

// Need inspects the start of buf and returns the total length of the frame that
// starts there, or 0 when the header is not complete yet. It fails as soon as a
// fixed header byte is wrong or the length is out of range, so garbage is caught
// without waiting for (or allocating) a frame of a bogus size.
func (f *Framing) Need(buf []byte) (int, error) {
	n := min(len(buf), len(f.Header))
	for i := range n {
		if !f.isLengthByte(i) && buf[i] != f.Header[i] {
			return 0, ErrBadHeader
		}
	}
	if n < len(f.Header) {
		return 0, nil
	}
	v := Uint(buf[f.LenOffset:], f.LenWidth, f.LenBig)
	total := v
	if f.LenCounts == CountsBody {
		total = v + uint64(f.Overhead())
	}
	if total < uint64(f.Overhead()) || total > uint64(f.MaxFrame) {
		return 0, ErrBadLength
	}
	return int(total), nil
}

// Check verifies the trailer and checksum of one complete frame.
func (f *Framing) Check(frame []byte) error {
	end := len(frame) - len(f.Trailer)
	for i, b := range f.Trailer {
		if frame[end+i] != b {
			return ErrBadTrailer
		}
	}
	w := f.Checksum.Width()
	if w == 0 {
		return nil
	}
	bodyEnd := end - w
	if Uint(frame[bodyEnd:], w, f.SumBig) != uint64(f.Checksum.Compute(frame[f.SumFrom:bodyEnd])) {
		return ErrBadChecksum
	}
	return nil
}

// Split returns the length of the complete, valid frame at the start of buf,
// 0 when more bytes are needed, or an error when buf starts with garbage.
func (f *Framing) Split(buf []byte) (int, error) {
	n, err := f.Need(buf)
	if err != nil || n == 0 || len(buf) < n {
		return 0, err
	}
	return n, f.Check(buf[:n])
}

// Body returns the body of a complete frame.
func (f *Framing) Body(frame []byte) []byte {
	return frame[len(f.Header) : len(frame)-f.Checksum.Width()-len(f.Trailer)]
}

// Encode appends a frame carrying body to dst and returns the extended slice.
func (f *Framing) Encode(dst, body []byte) ([]byte, error) {
	total := len(body) + f.Overhead()
	if total > f.MaxFrame {
		return dst, fmt.Errorf("frame: %d-byte frame exceeds max_frame %d", total, f.MaxFrame)
	}
	start := len(dst)
	dst = append(dst, f.Header...)
	dst = append(dst, body...)
	dst = append(dst, make([]byte, f.Checksum.Width())...)
	dst = append(dst, f.Trailer...)
	f.Seal(dst[start:])
	return dst, nil
}

// Seal rewrites the length field and checksum of a frame whose header, body and
// trailer are in place; callers patch body fields and then Seal.
func (f *Framing) Seal(frame []byte) {
	v := uint64(len(frame))
	if f.LenCounts == CountsBody {
		v -= uint64(f.Overhead())
	}
	PutUint(frame[f.LenOffset:], f.LenWidth, f.LenBig, v)
	w := f.Checksum.Width()
	if w == 0 {
		return
	}
	bodyEnd := len(frame) - len(f.Trailer) - w
	PutUint(frame[bodyEnd:], w, f.SumBig, uint64(f.Checksum.Compute(frame[f.SumFrom:bodyEnd])))
}

// Validate checks that the framing is self-consistent and returns a message
// naming the offending setting.
func (f *Framing) Validate() error {
	switch {
	case len(f.Header) == 0:
		return &SettingError{"header", "must hold at least the length field"}
	case f.LenWidth != 1 && f.LenWidth != 2 && f.LenWidth != 4:
		return settingErr("length.width", "%d, want 1, 2 or 4", f.LenWidth)
	case f.LenOffset < 0 || f.LenOffset+f.LenWidth > len(f.Header):
		return settingErr("length.offset", "%d does not fit a %d-byte field in the %d-byte header", f.LenOffset, f.LenWidth, len(f.Header))
	case f.LenCounts != CountsBody && f.LenCounts != CountsFrame:
		return settingErr("length.counts", "%q, want body or frame", f.LenCounts)
	case !f.Checksum.Valid():
		return settingErr("checksum.algorithm", "unknown %q (want crc16-modbus, sum8, xor8 or none)", f.Checksum)
	case f.SumFrom < 0 || f.SumFrom > len(f.Header):
		return settingErr("checksum.from", "%d, must be within the %d-byte header", f.SumFrom, len(f.Header))
	case f.MaxFrame < f.Overhead()+1 || f.MaxFrame > 65536:
		return settingErr("max_frame", "%d, want %d..65536", f.MaxFrame, f.Overhead()+1)
	}
	return nil
}

// SettingError is a framing setting that is out of range.
type SettingError struct {
	Setting string // e.g. "length.width"
	Msg     string
}

// Error formats the setting and the problem.
func (e *SettingError) Error() string { return e.Setting + ": " + e.Msg }

func settingErr(setting, format string, args ...any) error {
	return &SettingError{setting, fmt.Sprintf(format, args...)}
}
