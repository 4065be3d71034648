package profile

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"kneeboard/simulator/internal/frame"
)

// Profile is a compiled, validated protocol description.
type Profile struct {
	Name         string
	Description  string
	Framing      *frame.Framing
	TypeOffset   int // frame type byte, offset in the body
	Login        *Template
	Report       *Template
	LoginReply   *Template
	ReportReply  *Template // nil when acks are disabled
	MatchLoginID bool
	LoginTimeout time.Duration // 0 when the profile leaves it to the caller
	Acks         bool
	MatchAckID   bool
	MatchAckSeq  bool
}

// Error is a validation failure naming the offending field.
type Error struct {
	Field string
	Msg   string
}

// Error formats the failure as "profile: FIELD: MESSAGE".
func (e *Error) Error() string {
	if e.Field == "" {
		return "profile: " + e.Msg
	}
	return "profile: " + e.Field + ": " + e.Msg
}

func fail(field, format string, args ...any) *Error {
	return &Error{Field: field, Msg: fmt.Sprintf(format, args...)}
}

//go:embed singlelight.json
var singlelightJSON []byte

// BuiltinJSON returns the JSON text of a built-in profile.
func BuiltinJSON(name string) ([]byte, error) {
	if name != "singlelight" {
		return nil, fmt.Errorf("unknown built-in profile %q (have: singlelight)", name)
	}
	return singlelightJSON, nil
}

// Builtin returns a built-in profile by name.
func Builtin(name string) (*Profile, error) {
	doc, err := BuiltinJSON(name)
	if err != nil {
		return nil, err
	}
	return Parse(doc)
}

// Load reads and validates a profile file.
func Load(path string) (*Profile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	return Parse(data)
}

// Parse decodes and validates a JSON profile. Unknown keys are rejected so
// that a misspelt setting is not silently ignored.
func Parse(data []byte) (*Profile, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var doc Document
	if err := dec.Decode(&doc); err != nil {
		return nil, &Error{Msg: "invalid JSON: " + err.Error()}
	}
	if dec.More() {
		return nil, &Error{Msg: "invalid JSON: data after the profile object"}
	}
	return Compile(&doc)
}

// TypeOf returns the frame type byte of a received frame, false when the
// frame is too short to carry one.
func (p *Profile) TypeOf(f []byte) (byte, bool) {
	i := p.Framing.HeaderLen() + p.TypeOffset
	if i >= len(f)-p.Framing.Checksum.Width()-len(p.Framing.Trailer) {
		return 0, false
	}
	return f[i], true
}
