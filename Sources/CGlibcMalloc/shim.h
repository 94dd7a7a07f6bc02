// glibc's malloc.h (mallinfo2, mallopt): Linux only. Elsewhere (macOS) the module is empty and its users
// take their `#else` paths.
#ifdef __linux__
#include <malloc.h>
#endif
