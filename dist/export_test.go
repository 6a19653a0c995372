package dist

// Exported for the tests in package dist_test.
var (
	LibMaps = libMaps
	G2P     = g2p
	G2L     = g2l
	L2G     = l2g
	Numroc  = numroc
)
