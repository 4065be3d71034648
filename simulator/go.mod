module kneeboard/simulator

go 1.23.0

require github.com/HdrHistogram/hdrhistogram-go v1.4.0
