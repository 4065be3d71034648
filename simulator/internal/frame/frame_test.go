package frame

import (
	"bytes"
	"encoding/hex"
	"errors"
	"testing"
)

// The two frames quoted in seed 004 (DEVSIM.md test vectors).
const (
	loginHex  = "68230068000000002000002226130007500100020802034C4F43373930302D4331454C36313000A35116"
	reportHex = "68330068010000001300000e0000002001011003112700010fce590000003b400000dd242a426400000000000000000000000014000000f01216"
)

func singlelight() *Framing {
	return &Framing{
		Header: []byte{0x68, 0, 0, 0x68}, LenOffset: 1, LenWidth: 2, LenCounts: CountsBody,
		Checksum: CRC16Modbus, SumFrom: 1, Trailer: []byte{0x16}, MaxFrame: 1024,
	}
}

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// collector records every frame a Decoder hands over.
type collector struct{ frames [][]byte }

func (c *collector) HandleFrame(f []byte) error {
	c.frames = append(c.frames, bytes.Clone(f))
	return nil
}

func TestVectorsDecodeAndReencode(t *testing.T) {
	f := singlelight()
	for _, tc := range []struct {
		name     string
		hex      string
		size, l  int
		crc      uint16
		typeByte byte
	}{
		{"login", loginHex, 42, 35, 0x51A3, 0x00},
		{"report", reportHex, 58, 51, 0x12F0, 0x01},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw := mustHex(t, tc.hex)
			n, err := f.Split(raw)
			if err != nil || n != tc.size || len(raw) != tc.size {
				t.Fatalf("Split = %d, %v; want %d", n, err, tc.size)
			}
			body := f.Body(raw)
			if len(body) != tc.l || body[0] != tc.typeByte {
				t.Fatalf("body len %d type %#x", len(body), body[0])
			}
			if got := CRC16ModbusOf(raw[1 : 4+tc.l]); got != tc.crc {
				t.Fatalf("crc %#04x want %#04x", got, tc.crc)
			}
			enc, err := f.Encode(nil, body)
			if err != nil || !bytes.Equal(enc, raw) {
				t.Fatalf("re-encode differs:\n got %x\nwant %x (%v)", enc, raw, err)
			}
		})
	}
}

func TestCRC16ModbusCheckValue(t *testing.T) {
	// The catalogue check value of CRC-16/MODBUS over "123456789".
	if got := CRC16ModbusOf([]byte("123456789")); got != 0x4B37 {
		t.Fatalf("got %#04x", got)
	}
}

func TestChecksumMismatchAndGarbage(t *testing.T) {
	f := singlelight()
	raw := mustHex(t, reportHex)
	raw[20] ^= 0xFF
	if _, err := f.Split(raw); !errors.Is(err, ErrBadChecksum) {
		t.Fatalf("corrupted body: %v", err)
	}
	for name, in := range map[string][]byte{
		"bad start":   {0x00, 0x33, 0x00, 0x68},
		"bad second":  {0x68, 0x33, 0x00, 0x69},
		"too long":    {0x68, 0xFF, 0xFF, 0x68},
		"bad trailer": append(mustHex(t, loginHex)[:41], 0x17),
	} {
		if _, err := f.Split(in); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := f.Need([]byte{0x42}); !errors.Is(err, ErrBadHeader) {
		t.Errorf("garbage first byte not caught early: %v", err)
	}
}

func TestDecoderReassemblesSplitAndCoalesced(t *testing.T) {
	f := singlelight()
	login, report := mustHex(t, loginHex), mustHex(t, reportHex)
	stream := bytes.Join([][]byte{login, report, report, login, report}, nil)
	// Every way of cutting the stream in two, then byte by byte, then all at once.
	for cut := 0; cut <= len(stream); cut++ {
		d := NewDecoder(f)
		var c collector
		if err := d.Feed(stream[:cut], &c); err != nil {
			t.Fatalf("cut %d: %v", cut, err)
		}
		if err := d.Feed(stream[cut:], &c); err != nil {
			t.Fatalf("cut %d: %v", cut, err)
		}
		if len(c.frames) != 5 || d.Pending() != 0 {
			t.Fatalf("cut %d: %d frames, %d pending", cut, len(c.frames), d.Pending())
		}
		if !bytes.Equal(c.frames[1], report) || !bytes.Equal(c.frames[3], login) {
			t.Fatalf("cut %d: frames differ", cut)
		}
	}
	d := NewDecoder(f)
	var c collector
	for i := range stream {
		if err := d.Feed(stream[i:i+1], &c); err != nil {
			t.Fatal(err)
		}
	}
	if len(c.frames) != 5 {
		t.Fatalf("byte by byte: %d frames", len(c.frames))
	}
}

func TestDecoderStopsOnGarbageAfterFrames(t *testing.T) {
	f := singlelight()
	d := NewDecoder(f)
	var c collector
	in := append(mustHex(t, loginHex), 0xDE, 0xAD)
	if err := d.Feed(in, &c); !errors.Is(err, ErrBadHeader) || len(c.frames) != 1 {
		t.Fatalf("err %v, %d frames", err, len(c.frames))
	}
}

func TestOtherChecksumsAndBigEndian(t *testing.T) {
	for _, sum := range []Checksum{Sum8, Xor8, NoChecksum, CRC16Modbus} {
		f := &Framing{Header: []byte{0xAA, 0, 0}, LenOffset: 1, LenWidth: 2, LenBig: true,
			LenCounts: CountsFrame, Checksum: sum, SumBig: true, Trailer: nil, MaxFrame: 64}
		if err := f.Validate(); err != nil {
			t.Fatal(err)
		}
		enc, err := f.Encode(nil, []byte{1, 2, 3})
		if err != nil {
			t.Fatal(err)
		}
		if got := Uint(enc[1:], 2, true); got != uint64(len(enc)) {
			t.Fatalf("%s: length field %d, frame %d", sum, got, len(enc))
		}
		if n, err := f.Split(enc); err != nil || n != len(enc) {
			t.Fatalf("%s: split %d %v", sum, n, err)
		}
	}
}

func TestValidateRejectsBadFraming(t *testing.T) {
	bad := []func(*Framing){
		func(f *Framing) { f.LenWidth = 3 },
		func(f *Framing) { f.LenOffset = 3 },
		func(f *Framing) { f.LenCounts = "words" },
		func(f *Framing) { f.Checksum = "md5" },
		func(f *Framing) { f.MaxFrame = 2 },
		func(f *Framing) { f.SumFrom = 9 },
	}
	for i, mutate := range bad {
		f := singlelight()
		mutate(f)
		var se *SettingError
		if err := f.Validate(); !errors.As(err, &se) {
			t.Errorf("case %d: %v", i, err)
		}
	}
}
