// The system libbz2 (Debian: libbz2-dev). Only ActivityContainer's
// BZip2Adapter/Bzip2.swift (ActivityContainer) calls it (Specs/activity-container.md, "Compression").
#include <bzlib.h>
