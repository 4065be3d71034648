// Package profile describes a device protocol as data: framing, frame
// templates with per-device fields, the login handshake and the ack rule.
package profile

// Document is the JSON form of a profile, as users write it.
type Document struct {
	Name        string       `json:"name"`
	Description string       `json:"description"`
	Framing     FramingDoc   `json:"framing"`
	Frames      FramesDoc    `json:"frames"`
	Handshake   HandshakeDoc `json:"handshake"`
	Acks        AcksDoc      `json:"acks"`
}

// FramingDoc is the JSON form of the framing rules.
type FramingDoc struct {
	Header     string      `json:"header"`
	Length     LengthDoc   `json:"length"`
	Checksum   ChecksumDoc `json:"checksum"`
	Trailer    string      `json:"trailer"`
	TypeOffset int         `json:"type_offset"`
	MaxFrame   int         `json:"max_frame"`
}

// LengthDoc locates the length field inside the header.
type LengthDoc struct {
	Offset int    `json:"offset"`
	Width  int    `json:"width"`
	Endian string `json:"endian"`
	Counts string `json:"counts"`
}

// ChecksumDoc names the checksum and the first frame byte it covers.
type ChecksumDoc struct {
	Algorithm string `json:"algorithm"`
	Endian    string `json:"endian"`
	From      int    `json:"from"`
}

// FramesDoc holds the two frames a device sends.
type FramesDoc struct {
	Login  *FrameDoc `json:"login"`
	Report *FrameDoc `json:"report"`
}

// FrameDoc is a frame template: a whole captured frame or just its body, in
// hex, plus the fields written per device and per message.
type FrameDoc struct {
	Frame  string     `json:"frame,omitempty"`
	Body   string     `json:"body,omitempty"`
	Fields []FieldDoc `json:"fields"`
}

// FieldDoc places one field in a frame body.
type FieldDoc struct {
	Kind     string  `json:"kind"`
	Offset   int     `json:"offset"`
	Width    int     `json:"width,omitempty"`
	Encoding string  `json:"encoding,omitempty"`
	Endian   string  `json:"endian,omitempty"`
	Unit     string  `json:"unit,omitempty"`
	Min      *uint64 `json:"min,omitempty"`
	Max      *uint64 `json:"max,omitempty"`
}

// HandshakeDoc is the login rule: the reply the platform must send.
type HandshakeDoc struct {
	Reply         *FrameDoc `json:"reply"`
	MatchDeviceID bool      `json:"match_device_id"`
	TimeoutMS     int       `json:"timeout_ms"`
}

// AcksDoc is the ack rule: whether reports are answered and how to match.
type AcksDoc struct {
	Enabled       bool      `json:"enabled"`
	Reply         *FrameDoc `json:"reply"`
	MatchDeviceID bool      `json:"match_device_id"`
	MatchSeq      bool      `json:"match_seq"`
}
