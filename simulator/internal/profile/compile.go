package profile

import (
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"kneeboard/simulator/internal/frame"
)

// Compile validates a profile document and turns it into a Profile.
func Compile(doc *Document) (*Profile, error) {
	if strings.TrimSpace(doc.Name) == "" {
		return nil, fail("name", "must not be empty")
	}
	fr, err := compileFraming(&doc.Framing)
	if err != nil {
		return nil, err
	}
	p := &Profile{Name: doc.Name, Description: doc.Description, Framing: fr, TypeOffset: doc.Framing.TypeOffset}
	c := compiler{p: p}
	if p.Login, err = c.template("frames.login", doc.Frames.Login); err != nil {
		return nil, err
	}
	if p.Report, err = c.template("frames.report", doc.Frames.Report); err != nil {
		return nil, err
	}
	if p.Login.DeviceID == nil {
		return nil, fail("frames.login.fields", "needs a device_id field")
	}
	if p.Login.Type == p.Report.Type {
		return nil, fail("frames.report", "frame type 0x%02x is the same as the login's", p.Report.Type)
	}
	if err := c.handshake(&doc.Handshake); err != nil {
		return nil, err
	}
	if err := c.acks(&doc.Acks); err != nil {
		return nil, err
	}
	return p, nil
}

func compileFraming(d *FramingDoc) (*frame.Framing, error) {
	header, err := decodeHex("framing.header", d.Header)
	if err != nil {
		return nil, err
	}
	trailer, err := decodeHex("framing.trailer", d.Trailer)
	if err != nil {
		return nil, err
	}
	lenBig, err := bigEndian("framing.length.endian", d.Length.Endian)
	if err != nil {
		return nil, err
	}
	sumBig, err := bigEndian("framing.checksum.endian", d.Checksum.Endian)
	if err != nil {
		return nil, err
	}
	f := &frame.Framing{
		Header: header, LenOffset: d.Length.Offset, LenWidth: d.Length.Width, LenBig: lenBig,
		LenCounts: frame.LengthCounts(d.Length.Counts), Checksum: frame.Checksum(d.Checksum.Algorithm),
		SumBig: sumBig, SumFrom: d.Checksum.From, Trailer: trailer, MaxFrame: d.MaxFrame,
	}
	if f.MaxFrame == 0 {
		f.MaxFrame = 1024
	}
	if err := f.Validate(); err != nil {
		if se, ok := err.(*frame.SettingError); ok {
			return nil, &Error{Field: "framing." + se.Setting, Msg: se.Msg}
		}
		return nil, &Error{Field: "framing", Msg: err.Error()}
	}
	if d.TypeOffset < 0 {
		return nil, fail("framing.type_offset", "%d must not be negative", d.TypeOffset)
	}
	return f, nil
}

func decodeHex(field, s string) ([]byte, error) {
	s = strings.NewReplacer(" ", "", ":", "", "\n", "", "\t", "").Replace(s)
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fail(field, "not valid hex: %v", err)
	}
	return b, nil
}

func bigEndian(field, s string) (bool, error) {
	switch s {
	case "", "little":
		return false, nil
	case "big":
		return true, nil
	}
	return false, fail(field, "%q, want little or big", s)
}

// compiler carries the profile under construction while its parts are checked.
type compiler struct{ p *Profile }

func (c *compiler) template(path string, d *FrameDoc) (*Template, error) {
	if d == nil {
		return nil, fail(path, "is required")
	}
	fr := c.p.Framing
	var frameBytes []byte
	switch {
	case d.Frame != "" && d.Body != "":
		return nil, fail(path, "give either frame or body, not both")
	case d.Frame != "":
		raw, err := decodeHex(path+".frame", d.Frame)
		if err != nil {
			return nil, err
		}
		n, err := fr.Split(raw)
		if err == nil && n != len(raw) {
			err = fmt.Errorf("holds %d bytes but the framing reads a %d-byte frame (or an incomplete one)", len(raw), n)
		}
		if err != nil {
			return nil, fail(path+".frame", "%v", err)
		}
		frameBytes = raw
	case d.Body != "":
		body, err := decodeHex(path+".body", d.Body)
		if err != nil {
			return nil, err
		}
		if frameBytes, err = fr.Encode(nil, body); err != nil {
			return nil, fail(path+".body", "%v", err)
		}
	default:
		return nil, fail(path, "needs a frame or a body (hex)")
	}
	bodyLen := len(fr.Body(frameBytes))
	if c.p.TypeOffset >= bodyLen {
		return nil, fail(path, "the %d-byte body has no frame type byte at type_offset %d", bodyLen, c.p.TypeOffset)
	}
	t := &Template{Name: path, Frame: frameBytes, Type: fr.Body(frameBytes)[c.p.TypeOffset], framing: fr}
	for i := range d.Fields {
		fpath := fmt.Sprintf("%s.fields[%d]", path, i)
		f, err := compileField(fpath, &d.Fields[i], bodyLen, fr.HeaderLen())
		if err != nil {
			return nil, err
		}
		if f.At <= fr.HeaderLen()+c.p.TypeOffset && fr.HeaderLen()+c.p.TypeOffset < f.At+f.Width {
			return nil, fail(fpath+".offset", "field overlaps the frame type byte")
		}
		if err := t.add(fpath, f); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func (t *Template) add(path string, f Field) error {
	switch f.Kind {
	case KindDeviceID:
		if t.DeviceID != nil {
			return fail(path, "second device_id field")
		}
		t.DeviceID = &f
	case KindSeq:
		if t.Seq != nil {
			return fail(path, "second seq field")
		}
		t.Seq = &f
	default:
		t.Others = append(t.Others, f)
	}
	return nil
}

func (c *compiler) handshake(d *HandshakeDoc) error {
	var err error
	if c.p.LoginReply, err = c.template("handshake.reply", d.Reply); err != nil {
		return err
	}
	if d.TimeoutMS < 0 {
		return fail("handshake.timeout_ms", "%d must not be negative", d.TimeoutMS)
	}
	c.p.LoginTimeout = time.Duration(d.TimeoutMS) * time.Millisecond
	c.p.MatchLoginID = d.MatchDeviceID
	if d.MatchDeviceID {
		return sameLayout("handshake.reply.fields", "device_id", c.p.LoginReply.DeviceID, c.p.Login.DeviceID)
	}
	return nil
}

func (c *compiler) acks(d *AcksDoc) error {
	if !d.Enabled {
		if d.Reply != nil || d.MatchDeviceID || d.MatchSeq {
			return fail("acks.enabled", "is false but an ack rule is given")
		}
		return nil
	}
	var err error
	if c.p.ReportReply, err = c.template("acks.reply", d.Reply); err != nil {
		return err
	}
	if c.p.ReportReply.Type == c.p.LoginReply.Type {
		return fail("acks.reply", "frame type 0x%02x is the same as the login reply's", c.p.ReportReply.Type)
	}
	c.p.Acks, c.p.MatchAckID, c.p.MatchAckSeq = true, d.MatchDeviceID, d.MatchSeq
	if d.MatchDeviceID {
		if err := sameLayout("acks.reply.fields", "device_id", c.p.ReportReply.DeviceID, c.p.Report.DeviceID); err != nil {
			return err
		}
	}
	if d.MatchSeq {
		return sameLayout("acks.reply.fields", "seq", c.p.ReportReply.Seq, c.p.Report.Seq)
	}
	return nil
}

// sameLayout checks that a reply echoes a request field in the same encoding.
func sameLayout(path, kind string, reply, req *Field) error {
	switch {
	case req == nil:
		return fail(path, "matching on %s needs a %s field in the request frame too", kind, kind)
	case reply == nil:
		return fail(path, "matching on %s needs a %s field", kind, kind)
	case reply.Width != req.Width || reply.Encoding != req.Encoding || reply.Big != req.Big:
		return fail(path, "%s must have the same width and encoding as in the request", kind)
	}
	return nil
}
