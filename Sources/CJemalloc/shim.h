#include <jemalloc/jemalloc.h>
