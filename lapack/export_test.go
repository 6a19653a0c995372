package lapack

// RaceEnabled tells the external test package whether -race is on
// (race_test.go, norace_test.go).
const RaceEnabled = raceEnabled
