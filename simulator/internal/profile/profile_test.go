package profile

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func singlelight(t *testing.T) *Profile {
	t.Helper()
	p, err := Builtin("singlelight")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBuiltinKeepsSeedFrames(t *testing.T) {
	p := singlelight(t)
	if got := strings.ToUpper(hex.EncodeToString(p.Login.Frame)); got != "68230068000000002000002226130007500100020802034C4F43373930302D4331454C36313000A35116" {
		t.Fatalf("login template changed: %s", got)
	}
	if len(p.Report.Frame) != 58 || p.Report.Type != 0x01 || p.Login.Type != 0x00 {
		t.Fatalf("report %d bytes type %#x", len(p.Report.Frame), p.Report.Type)
	}
	if p.LoginReply.Type != 0x80 || p.ReportReply.Type != 0x81 || !p.MatchAckSeq || !p.MatchLoginID {
		t.Fatal("handshake or ack rule not as DEVSIM.md says")
	}
}

func TestStampWritesBCDIDAndSeqAndSeals(t *testing.T) {
	p := singlelight(t)
	out := p.Report.Stamp(nil, &Message{DeviceID: 100000, Seq: 0x1234})
	if n, err := p.Framing.Split(out); err != nil || n != 58 {
		t.Fatalf("stamped frame does not decode: %d %v", n, err)
	}
	body := p.Framing.Body(out)
	if !bytes.Equal(body[4:10], []byte{0x00, 0x00, 0x00, 0x10, 0x00, 0x00}) {
		t.Fatalf("BCD id: % x", body[4:10])
	}
	if body[10] != 0x34 || body[11] != 0x12 {
		t.Fatalf("seq: % x", body[10:12])
	}
	reply := p.ReportReply.Echo(nil, out, p.Report)
	if n, err := p.Framing.Split(reply); err != nil || n != len(reply) {
		t.Fatal("reply does not decode")
	}
	if !bytes.Equal(p.ReportReply.DeviceID.In(reply), body[4:10]) || p.ReportReply.Seq.Value(p.ReportReply.Seq.In(reply)) != 0x1234 {
		t.Fatal("reply does not echo id and seq")
	}
}

func TestDeviceIDEncodings(t *testing.T) {
	for _, tc := range []struct {
		enc   string
		width int
		id    uint64
		want  string
	}{
		{EncBCD, 6, 123456789012, "123456789012"},
		{EncASCII, 12, 42, hex.EncodeToString([]byte("000000000042"))},
		{EncU32LE, 4, 0x01020304, "04030201"},
		{EncU64LE, 8, 999999999999, "ff0fa5d4e8000000"},
	} {
		f := Field{Kind: KindDeviceID, Encoding: tc.enc, Width: tc.width}
		b := make([]byte, tc.width)
		f.PutDeviceID(b, tc.id)
		if got := hex.EncodeToString(b); got != tc.want {
			t.Errorf("%s: %s want %s", tc.enc, got, tc.want)
		}
	}
	if (&Field{Encoding: EncU32LE, Width: 4}).MaxID() != 1<<32-1 || (&Field{Encoding: EncBCD, Width: 6}).MaxID() != MaxDeviceID {
		t.Error("MaxID")
	}
}

// mutate decodes the built-in profile, changes it and re-encodes it.
func mutate(t *testing.T, change func(d map[string]any)) []byte {
	t.Helper()
	raw, _ := BuiltinJSON("singlelight")
	var d map[string]any
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	change(d)
	out, _ := json.Marshal(d)
	return out
}

func obj(d map[string]any, path ...string) map[string]any {
	for _, k := range path {
		d = d[k].(map[string]any)
	}
	return d
}

func TestInvalidProfilesNameTheField(t *testing.T) {
	cases := map[string]func(d map[string]any){
		"name":                       func(d map[string]any) { d["name"] = "" },
		"framing.header":             func(d map[string]any) { obj(d, "framing")["header"] = "6Z" },
		"framing.length.width":       func(d map[string]any) { obj(d, "framing", "length")["width"] = 3 },
		"framing.checksum.algorithm": func(d map[string]any) { obj(d, "framing", "checksum")["algorithm"] = "md5" },
		"frames.login.frame":         func(d map[string]any) { obj(d, "frames", "login")["frame"] = "6823006800" },
		"frames.report.fields[1].offset": func(d map[string]any) {
			obj(d, "frames", "report")["fields"].([]any)[1].(map[string]any)["offset"] = 50
		},
		"frames.report.fields[0].encoding": func(d map[string]any) {
			obj(d, "frames", "report")["fields"].([]any)[0].(map[string]any)["encoding"] = "base64"
		},
		"frames.report.fields[1].kind": func(d map[string]any) {
			obj(d, "frames", "report")["fields"].([]any)[1].(map[string]any)["kind"] = "colour"
		},
		"frames.report": func(d map[string]any) { delete(obj(d, "frames"), "report") },
		"acks.reply.fields": func(d map[string]any) {
			obj(d, "acks", "reply")["fields"] = []any{}
		},
		"unknown field": func(d map[string]any) { d["colour"] = "red" },
	}
	for field, change := range cases {
		_, err := Parse(mutate(t, change))
		var pe *Error
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), field) {
			t.Errorf("%s: got %v", field, err)
		}
	}
}

func TestBodyTemplatesAndOtherFields(t *testing.T) {
	doc := mutate(t, func(d map[string]any) {
		r := obj(d, "frames", "report")
		delete(r, "frame")
		r["body"] = "01" + strings.Repeat("00", 19)
		r["fields"] = append(r["fields"].([]any),
			map[string]any{"kind": "timestamp", "offset": 12, "width": 4, "unit": "s"},
			map[string]any{"kind": "random", "offset": 16, "width": 2, "min": 10, "max": 20, "endian": "big"})
	})
	p, err := Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	out := p.Report.Stamp(nil, &Message{DeviceID: 7, Seq: 1, Rand: nil})
	if len(out) != 20+7 {
		t.Fatalf("frame %d bytes", len(out))
	}
	if v := p.Report.Others[1].Value(p.Report.Others[1].In(out)); v != 10 {
		t.Fatalf("random without a source should be min, got %d", v)
	}
}
