package evloop

import (
	"reflect"
	"testing"
)

func TestTable(t *testing.T) {
	var tb Table[string]
	a, b, c := "a", "b", "c"
	tb.Put(3, &a)
	tb.Put(200, &b) // beyond the first growth
	tb.Put(70, &c)
	for fd, want := range map[int]*string{3: &a, 200: &b, 70: &c, 4: nil, -1: nil, 1000: nil} {
		if got := tb.Get(fd); got != want {
			t.Errorf("Get(%d) = %v, want %v", fd, got, want)
		}
	}
	tb.Delete(70)
	tb.Delete(-1)   // ignored
	tb.Delete(5000) // ignored
	if tb.Get(70) != nil {
		t.Error("Get after Delete is not nil")
	}
	got := map[int]string{}
	tb.Each(func(fd int, v *string) { got[fd] = *v })
	if want := map[int]string{3: "a", 200: "b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Each saw %v, want %v", got, want)
	}
}
