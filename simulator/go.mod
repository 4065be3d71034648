module kneeboard/simulator

go 1.22
