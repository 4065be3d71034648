package profile

import (
	"math/rand/v2"
	"time"

	"kneeboard/simulator/internal/frame"
)

// Field kinds a template may carry.
const (
	KindDeviceID  = "device_id"
	KindSeq       = "seq"
	KindTimestamp = "timestamp"
	KindRandom    = "random"
)

// Device ID encodings.
const (
	EncBCD   = "bcd"
	EncASCII = "ascii"
	EncU32LE = "u32le"
	EncU64LE = "u64le"
)

// MaxDeviceID is the largest device ID: IDs are 12 decimal digits.
const MaxDeviceID = 999_999_999_999

// Field is one compiled field, At being its absolute offset in the frame.
type Field struct {
	Kind     string
	At       int
	Width    int
	Big      bool
	Encoding string // device_id only
	Millis   bool   // timestamp only: milliseconds instead of seconds
	Min, Max uint64 // random only
}

// In returns the field's bytes in frame, or nil when the frame is too short.
func (f *Field) In(frame []byte) []byte {
	if f == nil || f.At+f.Width > len(frame) {
		return nil
	}
	return frame[f.At : f.At+f.Width]
}

// MaxID is the largest device ID the field's encoding can carry.
func (f *Field) MaxID() uint64 {
	limit := uint64(MaxDeviceID)
	switch f.Encoding {
	case EncBCD:
		limit = pow10(2 * f.Width)
	case EncASCII:
		limit = pow10(f.Width)
	case EncU32LE:
		limit = 1 << 32
	}
	return min(limit-1, MaxDeviceID)
}

func pow10(n int) uint64 {
	v := uint64(1)
	for range min(n, 19) {
		v *= 10
	}
	return v
}

// PutDeviceID writes id into b (Width bytes) in the field's encoding.
func (f *Field) PutDeviceID(b []byte, id uint64) {
	switch f.Encoding {
	case EncBCD:
		for i := f.Width - 1; i >= 0; i-- {
			lo := id % 10
			id /= 10
			b[i] = byte(id%10<<4 | lo)
			id /= 10
		}
	case EncASCII:
		for i := f.Width - 1; i >= 0; i-- {
			b[i] = byte('0' + id%10)
			id /= 10
		}
	default: // u32le, u64le
		frame.PutUint(b, f.Width, false, id)
	}
}

// Value reads the field as an unsigned integer (sequence numbers).
func (f *Field) Value(b []byte) uint64 { return frame.Uint(b, f.Width, f.Big) }

// Mask is the largest value the field holds; sequence numbers wrap past it.
func (f *Field) Mask() uint64 {
	if f.Width >= 8 {
		return ^uint64(0)
	}
	return 1<<(8*uint(f.Width)) - 1
}

// Message carries the per-message values stamped into a template.
type Message struct {
	DeviceID uint64
	Seq      uint64
	Now      time.Time
	Rand     *rand.Rand
}

// put writes the field's per-message value into frame.
func (f *Field) put(dst []byte, m *Message) {
	b := dst[f.At : f.At+f.Width]
	switch f.Kind {
	case KindDeviceID:
		f.PutDeviceID(b, m.DeviceID)
	case KindSeq:
		frame.PutUint(b, f.Width, f.Big, m.Seq&f.Mask())
	case KindTimestamp:
		t := uint64(m.Now.Unix())
		if f.Millis {
			t = uint64(m.Now.UnixMilli())
		}
		frame.PutUint(b, f.Width, f.Big, t)
	case KindRandom:
		v := f.Min
		switch span := f.Max - f.Min; {
		case m.Rand == nil || span == 0:
		case span == ^uint64(0):
			v = m.Rand.Uint64()
		default:
			v += m.Rand.Uint64N(span + 1)
		}
		frame.PutUint(b, f.Width, f.Big, v)
	}
}
