// Empty: lets main.go declare setEventHandler without a body (go:linkname, see there).
