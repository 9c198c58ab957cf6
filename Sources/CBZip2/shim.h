// The system libbz2 (Debian: libbz2-dev). Only ActivityContainer's
// Bzip2.swift calls it (Specs/activity-container.md, "Compression").
#include <bzlib.h>
