// libplist's C API (Debian libplist-dev, pkg-config libplist-2.0), for the
// differential fuzz target FuzzDifferentialLibplist only: libplist is a test
// peer, never a dependency of the ActivityCodec library (Specs/fuzzing.md).
#include <plist/plist.h>
