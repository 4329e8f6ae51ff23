#ifndef AUTHDECK_CMALLOC_SHIM_H
#define AUTHDECK_CMALLOC_SHIM_H
/* glibc's malloc tuning (mallopt), which Swift's Glibc module does not include. */
#include <malloc.h>
#endif
