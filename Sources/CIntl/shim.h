// gettext as glibc provides it (libintl.h), for TasksCore, which links no UI library.
#ifndef B2C_CINTL_SHIM_H
#define B2C_CINTL_SHIM_H

#include <libintl.h>

#endif
