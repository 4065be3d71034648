// Package fieldtest helps tests check code that must treat every integer
// field of a struct alike (counters summed field by field), so that a field
// added later and forgotten there makes a test fail.
package fieldtest

import (
	"fmt"
	"reflect"
	"testing"
)

// CheckSum fails t unless add(dst, src) sums every integer field of T (and
// every element of its integer arrays) into dst. name names T in messages.
func CheckSum[T any](t testing.TB, name string, add func(dst, src *T)) {
	t.Helper()
	var dst, src T
	Fill(&dst, 1)
	Fill(&src, 2)
	add(&dst, &src)
	if bad, n := Unequal(&dst, 3); len(bad) > 0 || n == 0 {
		t.Errorf("%s: add left %v of %d integer fields unsummed", name, bad, n)
	}
}

// Fill sets every integer field of the struct p points to, and every
// element of its integer arrays, to v.
func Fill(p any, v uint64) {
	leaves(reflect.ValueOf(p).Elem(), "", func(_ string, f reflect.Value) {
		if f.CanUint() {
			f.SetUint(v)
		} else {
			f.SetInt(int64(v))
		}
	})
}

// Unequal returns the paths of the integer fields (and array elements) of
// the struct p points to that are not v, and how many it looked at.
func Unequal(p any, v uint64) (paths []string, checked int) {
	leaves(reflect.ValueOf(p).Elem(), "", func(path string, f reflect.Value) {
		checked++
		if (f.CanUint() && f.Uint() != v) || (f.CanInt() && f.Int() != int64(v)) {
			paths = append(paths, path)
		}
	})
	return paths, checked
}

func leaves(v reflect.Value, path string, f func(string, reflect.Value)) {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() || v.Type().Field(i).Anonymous {
				leaves(v.Field(i), path+"."+v.Type().Field(i).Name, f)
			}
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			leaves(v.Index(i), fmt.Sprintf("%s[%d]", path, i), f)
		}
	case reflect.Int, reflect.Int64, reflect.Uint64, reflect.Uint32, reflect.Uint:
		f(path, v)
	}
}
