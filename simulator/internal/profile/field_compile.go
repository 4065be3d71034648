package profile

// compileField checks one field document against a body of bodyLen bytes and
// returns it with its absolute frame offset (the body starts at headerLen).
func compileField(path string, d *FieldDoc, bodyLen, headerLen int) (Field, error) {
	f := Field{Kind: d.Kind, Width: d.Width, Encoding: d.Encoding}
	var err error
	if f.Big, err = bigEndian(path+".endian", d.Endian); err != nil {
		return f, err
	}
	switch d.Kind {
	case KindDeviceID:
		err = deviceIDField(path, d, &f)
	case KindSeq:
		err = widthIn(path, &f, 2, 1, 2, 4, 8)
	case KindTimestamp:
		err = timestampField(path, d, &f)
	case KindRandom:
		err = randomField(path, d, &f)
	default:
		err = fail(path+".kind", "%q, want device_id, seq, timestamp or random", d.Kind)
	}
	if err != nil {
		return f, err
	}
	if d.Kind != KindDeviceID && d.Encoding != "" {
		return f, fail(path+".encoding", "only device_id fields have an encoding")
	}
	if d.Offset < 0 || d.Offset+f.Width > bodyLen {
		return f, fail(path+".offset", "%d: a %d-byte field does not fit in the %d-byte body", d.Offset, f.Width, bodyLen)
	}
	f.At = headerLen + d.Offset
	return f, nil
}

func widthIn(path string, f *Field, def int, allowed ...int) error {
	if f.Width == 0 {
		f.Width = def
	}
	for _, w := range allowed {
		if f.Width == w {
			return nil
		}
	}
	return fail(path+".width", "%d, want one of %v", f.Width, allowed)
}

func deviceIDField(path string, d *FieldDoc, f *Field) error {
	if d.Endian != "" {
		return fail(path+".endian", "device_id has an encoding, not an endianness")
	}
	switch d.Encoding {
	case EncBCD:
		if err := widthIn(path, f, 6, 1, 2, 3, 4, 5, 6, 7, 8); err != nil {
			return err
		}
	case EncASCII:
		if f.Width == 0 {
			f.Width = 12
		}
		if f.Width < 1 || f.Width > 20 {
			return fail(path+".width", "%d, want 1..20", f.Width)
		}
	case EncU32LE:
		return widthIn(path, f, 4, 4)
	case EncU64LE:
		return widthIn(path, f, 8, 8)
	default:
		return fail(path+".encoding", "%q, want bcd, ascii, u32le or u64le", d.Encoding)
	}
	return nil
}

func timestampField(path string, d *FieldDoc, f *Field) error {
	switch d.Unit {
	case "", "s":
	case "ms":
		f.Millis = true
	default:
		return fail(path+".unit", "%q, want s or ms", d.Unit)
	}
	return widthIn(path, f, 4, 4, 8)
}

func randomField(path string, d *FieldDoc, f *Field) error {
	if err := widthIn(path, f, 2, 1, 2, 4, 8); err != nil {
		return err
	}
	f.Max = f.Mask()
	if d.Min != nil {
		f.Min = *d.Min
	}
	if d.Max != nil {
		f.Max = *d.Max
	}
	if f.Max > f.Mask() {
		return fail(path+".max", "%d does not fit in %d bytes", f.Max, f.Width)
	}
	if f.Min > f.Max {
		return fail(path+".min", "%d is above max %d", f.Min, f.Max)
	}
	return nil
}
