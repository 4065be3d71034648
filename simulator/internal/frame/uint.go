package frame

// PutUint writes the low width bytes of v into b, big- or little-endian.
func PutUint(b []byte, width int, bigEndian bool, v uint64) {
	for i := range width {
		shift := 8 * uint(i)
		if bigEndian {
			b[width-1-i] = byte(v >> shift)
		} else {
			b[i] = byte(v >> shift)
		}
	}
}

// Uint reads a width-byte unsigned integer from b, big- or little-endian.
func Uint(b []byte, width int, bigEndian bool) uint64 {
	var v uint64
	for i := range width {
		var x byte
		if bigEndian {
			x = b[width-1-i]
		} else {
			x = b[i]
		}
		v |= uint64(x) << (8 * uint(i))
	}
	return v
}
