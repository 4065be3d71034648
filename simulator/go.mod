module kneeboard/simulator

go 1.26
