// The module is header-only (CPrefetch.h); SwiftPM needs one source file per C target.
#include "CPrefetch.h"
