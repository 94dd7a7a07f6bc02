// CWorldInterposers has no API of its own: linking it interposes the C library's clock, random, read,
// dispatch and thread-start functions (see world_interposers.c), and `world_hooks_interposed()` says so.
