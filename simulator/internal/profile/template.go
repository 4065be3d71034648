package profile

import "kneeboard/simulator/internal/frame"

// Template is a compiled frame: a sealed frame plus the fields to stamp into it.
type Template struct {
	Name     string
	Frame    []byte // complete frame with the template body
	Type     byte   // frame type byte of the template
	DeviceID *Field
	Seq      *Field
	Others   []Field // timestamps and random values
	framing  *frame.Framing
}

// Stamp appends a copy of the template to dst with the message's fields
// written in, reseals it (length and checksum) and returns the extended slice.
func (t *Template) Stamp(dst []byte, m *Message) []byte {
	start := len(dst)
	dst = append(dst, t.Frame...)
	out := dst[start:]
	if t.DeviceID != nil {
		t.DeviceID.put(out, m)
	}
	if t.Seq != nil {
		t.Seq.put(out, m)
	}
	for i := range t.Others {
		t.Others[i].put(out, m)
	}
	t.framing.Seal(out)
	return dst
}

// Echo appends a reply built from this template to dst, copying the device ID
// and sequence bytes of the request frame req (located by the request
// template's fields) into the reply's own fields, and reseals it.
func (t *Template) Echo(dst, req []byte, reqT *Template) []byte {
	start := len(dst)
	dst = append(dst, t.Frame...)
	out := dst[start:]
	copyField(out, t.DeviceID, req, reqT.DeviceID)
	copyField(out, t.Seq, req, reqT.Seq)
	t.framing.Seal(out)
	return dst
}

func copyField(dst []byte, dstF *Field, src []byte, srcF *Field) {
	if b := srcF.In(src); b != nil && dstF != nil && dstF.Width == srcF.Width {
		copy(dstF.In(dst), b)
	}
}
