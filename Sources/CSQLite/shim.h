// SQLite, for the simulated disk's VFS (`CSimulatedDisk`). GRDB links it through its own `GRDBSQLite`; this
// target exists so that SwiftPM finds `sqlite3.pc` and, on a machine without it, prints the apt-get line.
#include <sqlite3.h>
